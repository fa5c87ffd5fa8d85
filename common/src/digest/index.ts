/** The evening digest's words shared by the server and the History page. */

/** The execution type of a digest's History row: not an alert, never counted in the quota. */
export const DIGEST_EXECUTION = 'DIGEST';

/** What the History page shows in a digest row's symbol column (it names no instrument). */
export const DIGEST_HISTORY_LABEL = 'Evening digest';
