interface StepPoint {
  label: string;
  detail: string;
  badge?: string;
}

interface HowItWorksStep {
  title: string;
  summary: string;
  points: StepPoint[];
}

/** The four steps of Know more (docs/pages.md). */
export const HOW_IT_WORKS_STEPS: HowItWorksStep[] = [
  {
    title: 'Sign in with Google',
    summary: 'Use the Google account you already have. There is no new password to remember.',
    points: [
      { label: 'One click.', detail: 'Your account is created the first time you sign in.' },
      {
        label: 'Your email, verified.',
        detail: 'Your Google email is ready to receive alerts straight away.',
      },
    ],
  },
  {
    title: 'Add your holdings',
    summary: 'Bring in everything you own, from every demat account, in a couple of minutes.',
    points: [
      {
        label: 'CSV upload',
        badge: 'Recommended',
        detail:
          'Download the holdings file from Zerodha, Groww, Upstox, Dhan, ICICI Direct or Angel One and upload it as it is. Up to 1,000 holdings at once.',
      },
      { label: 'Manual entry', detail: 'Type in symbol, exchange, quantity and buy price for a few stocks.' },
      {
        label: 'Broker API connection',
        detail:
          'Connect Zerodha, Upstox, Angel One or Dhan once: holdings follow your broker every trading day, and on Sync now.',
      },
    ],
  },
  {
    title: 'Set up alerts and rules',
    summary: 'Decide in advance where you will book profits and where you will stop losses.',
    points: [
      {
        label: 'Price crossing thresholds.',
        detail: 'Get alerted when a stock falls below your stop loss or rises to your profit target.',
      },
      {
        label: 'Percentage change.',
        detail: 'Set a rule as a percentage of the current price, such as 7% below it, or as a rupee amount.',
      },
      {
        label: 'Fixed or automatically increasing thresholds.',
        detail:
          'A fixed stop stays where you put it; a trailing stop rises as the price rises and never falls.',
      },
      {
        label: 'Delivery by email or WhatsApp.',
        detail:
          'Email on every plan; WhatsApp on the Advanced plan (coming soon). Automatic sell orders are coming soon too.',
      },
    ],
  },
  {
    title: 'Sit back and relax',
    summary: 'Portfolio Guard does the watching so you do not have to stare at a screen.',
    points: [
      {
        label: 'Live price tracking every minute.',
        detail: 'Prices are checked every minute while NSE and BSE are open, with your P&L in rupees.',
      },
      {
        label: 'Dynamic thresholds.',
        detail: 'Trailing stops follow the price up, so the gains you have made stay protected.',
      },
      {
        label: 'Rule triggers.',
        detail:
          'When a rule triggers you are alerted within moments, and every trigger is kept in your history.',
      },
    ],
  },
];
