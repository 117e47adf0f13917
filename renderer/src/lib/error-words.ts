import type { ContractError, ErrorCode } from '$contract/index.ts';
import { splitWaitNote } from '../../../main/common/wait-note.ts';

// The words an error is shown in: what happened (a heading), why (main's sentence, or the service's
// own words quoted as its), and what to do, each said once. Every heading the renderer shows over an
// error is here, so one test renders them all against every code.

/** What the user was doing, as the heading shown over the error. */
export const CONTEXT_HEADINGS = {
  runStart: 'The run did not start.',
  runShow: 'The run could not be opened.',
  runRecord: 'The run did not finish.',
  history: 'The run history could not be read.',
  queryList: 'The queries could not be listed.',
  queryOpen: 'The query could not be opened.',
  querySave: 'The query was not saved.',
  queryCreate: 'The query was not created.',
  queryCreateOffline: 'The query was not created yet.',
  queryChange: 'The query was not changed.',
  parametersSave: 'The parameters were not saved.',
  editResend: 'Your saved edit was refused.',
  conflictChoice: 'Your choice was not applied.',
  tablesList: 'The tables could not be listed.',
  tableQuery: 'The query on this table was not made.',
  tableDelete: 'The table was not deleted.',
  fileRead: 'The file could not be read as CSV.',
  upload: 'The file was not uploaded.',
  settingsLoad: 'The settings could not be read.',
  settingSave: 'That setting was not saved.',
  diagnostics: 'The diagnostics could not be gathered.',
  logsFolder: 'The logs folder could not be opened.',
  cacheLoad: 'The results cache’s use and budget could not be read.',
  cacheClear: 'The cache was not cleared.',
  accountSave: 'The account was not saved.',
  accountTest: 'The connection test failed.',
  accountChange: 'The account was not changed.',
  columnProfile: 'The column could not be profiled.',
  sample: 'No sample was drawn.',
  compare: 'The runs could not be compared.',
  chartDraw: 'The chart could not be drawn.',
  pivot: 'The pivot could not be made.',
  chartCopy: 'The chart could not be copied.',
  export: 'The export failed.',
  rowsLoad: 'Some rows could not be loaded.',
  cellsRead: 'The cells could not be read.',
  linkOpen: 'The link could not be opened.',
  versions: 'The versions of the query could not be read.',
  parameterSets: 'The parameter sets were not changed.',
} as const;

export type ErrorContext = keyof typeof CONTEXT_HEADINGS;

/** What happened, when the caller has no context of its own. */
const CODE_HEADINGS: Record<ErrorCode, string> = {
  invalid_request: 'Some fields are not valid.',
  unknown_channel: 'The app got a request it does not know.',
  untrusted_sender: 'The app refused a request from this window.',
  not_found: 'It was not found.',
  bad_key: 'The account’s API key cannot be used.',
  forbidden: 'The service does not allow this.',
  bad_request: 'The service refused the request.',
  rate_limited: 'The service is limiting requests.',
  server_error: 'The service ran into a problem.',
  unreachable: 'The service could not be reached.',
  timeout: 'The service took too long to answer.',
  cancelled: 'It was cancelled.',
  keychain_unavailable: 'The system keychain is not available.',
  partial_result: 'The service kept only part of the result.',
  internal: 'Something went wrong.',
};

const BUG = 'This is a bug in Querydesk: the day’s log, in the logs folder shown under Settings, About, has the details.';
// A why that already says to check the address, or that is about the window's own link to the app
// (its host), not the service: the network advice would be said twice, or be wrong.
const NOT_THE_SERVICE = /\bcheck the (network|base url|address)\b|\bQuerydesk’s host\b|\bits host\b|\baccess token\b/i;
const NETWORK =
  'Check the network and the service’s address in Accounts. Querydesk keeps checking, and the title bar shows Online once the service answers.';

/**
 * What to do, per code; none where the why already says what to change. `unless` is how a why that
 * already gives this advice reads, so it is not said twice.
 */
const ADVICE: Partial<Record<ErrorCode, { text: string; unless?: RegExp }>> = {
  unknown_channel: { text: BUG },
  untrusted_sender: { text: BUG },
  not_found: { text: 'Reload the list: it may have been deleted since it was shown.', unless: /\bin Accounts\b/ },
  bad_key: { text: 'Enter the API key again in Accounts.', unless: /\benter (it|the (api )?key)\b/i },
  forbidden: { text: 'The plan or team of this account may not allow it: check them on the service, or use another account.' },
  rate_limited: { text: 'Wait a minute, then try again.', unless: /\bwait\b/i },
  server_error: { text: 'Try again later.' },
  unreachable: { text: NETWORK, unless: NOT_THE_SERVICE },
  timeout: { text: NETWORK, unless: NOT_THE_SERVICE },
  keychain_unavailable: { text: 'Keep the key for this session only, or unlock the keychain and try again.' },
  internal: { text: BUG },
};

export interface ErrorWords {
  /** What happened. */
  heading: string;
  /** Why, then what to do: the text beneath the heading. */
  body: string;
}

/**
 * The words for an error met while doing `context`. A plain string is a reason with no code, from
 * the app or the system rather than the service.
 */
export function errorWords(error: ContractError | string, context?: ErrorContext): ErrorWords {
  const code = typeof error === 'string' ? null : error.code;
  const message = typeof error === 'string' ? error : error.message;
  const heading = context ? CONTEXT_HEADINGS[context] : code ? CODE_HEADINGS[code] : CODE_HEADINGS.internal;
  const why = whyOf(message, code === null ? 'The reason given' : 'The service said');
  const advice = code ? ADVICE[code] : undefined;
  const said = advice && !(advice.unless?.test(why) ?? false) ? advice.text : null;
  return { heading, body: [why, said].filter((part) => part !== null && part !== '').join(' ') };
}

/** The same words on one line, for a status line or a footer. */
export function errorLine(error: ContractError | string, context: ErrorContext): string {
  const { heading, body } = errorWords(error, context);
  return body === '' ? heading : `${heading} ${body}`;
}

/** The message as a sentence of its own: main's sentences as they are, others' words quoted as theirs. */
function whyOf(message: string, whoseWords: string): string {
  const { words, seconds } = splitWaitNote(message.trim());
  const note = seconds === null ? null : `The service asks to wait ${seconds} s before trying again.`;
  const why = words === '' ? null : isSentence(words) ? words : `${whoseWords}: “${words}”.`;
  return [why, note].filter((part) => part !== null).join(' ');
}

function isSentence(text: string): boolean {
  return /^[\p{Lu}\p{N}“"(]/u.test(text) && /[.?!…][”"’)]?$/u.test(text);
}
