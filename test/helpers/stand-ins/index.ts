/**
 * What the tests write for each file of `../shared` they read when that folder is absent (a clone
 * on a machine of its own): the file's own format, from code. `lost` says which check of the real
 * file a run on the stand-in does not make.
 */
import { bcFile } from './bc-file.ts';
import { bseEq100719, nseCm01Apr2019 } from './bhavcopy.ts';
import { consoleEquityLayout, dhanHoldings, growwStatementLayout, kiteHoldings } from './broker-files.ts';
import { kiteGenerateSession, kiteHoldingsAnswer } from './kite-samples.ts';
import {
  kiteFullPacket,
  kiteInstrumentsAll,
  kiteLtpPacket,
  kiteQuotePacket,
  tickerFullJson,
  tickerFullPacket,
  tickerQuoteJson,
  tickerQuotePacket,
} from './kite-ticker-samples.ts';
import { dhanCurrentHoldings, dhanMarketFeedTicker } from './dhan-samples.ts';
import { whatsappStatuses } from './whatsapp-statuses.ts';
import {
  telegramTextUpdate,
  telegramTooLong,
  telegramTooManyRequests,
  telegramUserDeactivated,
} from './telegram-samples.ts';
import { webpushEncryptionDraft } from './webpush-vector.ts';
import { nvdaSplitChart } from './yahoo-chart.ts';
import { bseScripList, nseEquityList, nseEtfList, nseSmeList, nseSymbolChanges } from './exchange-files.ts';

export interface StandIn {
  write: () => string | Uint8Array;
  lost: string;
}

const fromSnapshot = 'written from server/snapshot/instruments.json, not the exchange download';
const brokerSample = "the shared broker sample's own bytes";
const telegramSample = "Telegram's recorded answers (the fake Bot API's texts checked against themselves)";

const kiteSample =
  "Kite Connect's sample answers (zerodha/kiteconnect-mocks) beyond the fields the app reads";

const kiteTickerSample =
  "Kite's ticker packets as kiteconnectjs and kiteconnect-mocks ship them (written here from the values their tests assert)";

export const STAND_INS: Record<string, StandIn> = {
  'data/EQUITY_L_2026-07-10.csv': { write: nseEquityList, lost: `NSE's EQUITY_L (${fromSnapshot})` },
  'data/SME_EQUITY_L_head50_2026-05-17.csv': { write: nseSmeList, lost: "NSE's SME list" },
  'data/eq_etfseclist_2026-05-17.csv': { write: nseEtfList, lost: "NSE's ETF list and its stray bytes" },
  'data/symbolchange_2026-05-17.csv': { write: nseSymbolChanges, lost: "NSE's symbol changes" },
  'data/BSE_Equity_head60.csv': { write: bseScripList, lost: "BSE's scrip list" },
  'data/bc16122025_equity_rows.csv': { write: bcFile, lost: "NSE's bc file of 16 Dec 2025" },
  'data/samples/bhavcopy/cm01APR2019bhav.csv': {
    write: nseCm01Apr2019,
    lost: "NSE's bhavcopy of 1 Apr 2019 beyond 11 of its rows",
  },
  'data/samples/yahoo/historical-via-chart-NVDA-split-2021-02-01-to-2022-01-31.csv.json': {
    write: nvdaSplitChart,
    lost: "Yahoo's recorded NVDA chart answer beyond 9 of its 252 days",
  },
  'data/samples/bhavcopy/EQ100719.CSV': {
    write: bseEq100719,
    lost: "BSE's bhavcopy of 10 Jul 2019 beyond 7 of its rows",
  },
  'data/samples/whatsapp/pywa_tests_data_updates_message_status.json': {
    write: whatsappStatuses,
    lost: "the recorded WhatsApp status webhooks' own fields",
  },
  'data/samples/webpush/draft-ietf-webpush-encryption.md': {
    write: webpushEncryptionDraft,
    lost: "the Web Push draft's own text (its test vector is the RFC's)",
  },
  'fixtures/brokers/zerodha_kite_holdings.csv': { write: kiteHoldings, lost: brokerSample },
  'fixtures/brokers/dhan_holdings.csv': { write: dhanHoldings, lost: brokerSample },
  'fixtures/brokers/groww_stocks_holdings_statement_layout.csv': {
    write: growwStatementLayout,
    lost: brokerSample,
  },
  'fixtures/brokers/zerodha_console_holdings_Equity_sheet_layout.csv': {
    write: consoleEquityLayout,
    lost: brokerSample,
  },
  'data/samples/telegram/nutgram_Responses_too_many_requests.json': {
    write: telegramTooManyRequests,
    lost: telegramSample,
  },
  'data/samples/telegram/nutgram_Responses_user_deactivated.json': {
    write: telegramUserDeactivated,
    lost: telegramSample,
  },
  'data/samples/telegram/nutgram_Responses_too_long.json': { write: telegramTooLong, lost: telegramSample },
  'data/samples/telegram/nutgram_Updates_text.json': { write: telegramTextUpdate, lost: telegramSample },
  'data/samples/kite/generate_session.json': { write: kiteGenerateSession, lost: kiteSample },
  'data/samples/kite/holdings.json': { write: kiteHoldingsAnswer, lost: kiteSample },
  'data/samples/kite/kiteconnectjs_ltpMode_binary.packet': { write: kiteLtpPacket, lost: kiteTickerSample },
  'data/samples/kite/kiteconnectjs_quoteMode_binary.packet': {
    write: kiteQuotePacket,
    lost: kiteTickerSample,
  },
  'data/samples/kite/kiteconnectjs_fullMode_binary.packet': { write: kiteFullPacket, lost: kiteTickerSample },
  'data/samples/kite/ticker_quote.packet': { write: tickerQuotePacket, lost: kiteTickerSample },
  'data/samples/kite/ticker_full.packet': { write: tickerFullPacket, lost: kiteTickerSample },
  'data/samples/kite/ticker_quote.json': { write: tickerQuoteJson, lost: kiteTickerSample },
  'data/samples/kite/ticker_full.json': { write: tickerFullJson, lost: kiteTickerSample },
  'data/samples/kite/instruments_all.csv': {
    write: kiteInstrumentsAll,
    lost: "Kite's sample instruments list beyond four of its rows",
  },
  'data/samples/dhan/DhanHQ-py_tests_data_get-current-holdings.json': {
    write: dhanCurrentHoldings,
    lost: "the DhanHQ-py holdings fixture's own fields",
  },
  'data/samples/dhan/DhanHQ-py_tests_data_market_feed_ticker.json': {
    write: dhanMarketFeedTicker,
    lost: "the DhanHQ-py ticker fixture's own values",
  },
};
