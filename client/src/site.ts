/** Facts about the product that several pages print. */

export const APP_NAME = 'Portfolio Guard';
export const SUPPORT_EMAIL = 'support@portfolioguard.in';
/** Promised reply time for support email (the Contact page: docs/pages.md). */
export const SUPPORT_RESPONSE_TIME = 'within 24 hours';
