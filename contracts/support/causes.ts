// Why an interaction failed, said as a backend developer would look for it: the first line of its
// failure in the summary of `npm run contracts:verify`, before Pact's own lines, and what the
// closing table counts. Read from what Pact found (its mismatches), what the provider answered
// (status, type, body: the verifier's proxy keeps them) and what the provider states did.

/** A mismatch as the Pact Verifier reports it. */
export interface VerifierMismatch {
  type?: string;
  mismatch?: string;
  message?: string;
  path?: string;
  expected?: unknown;
  actual?: unknown;
  actualBody?: unknown;
}

/** What the provider answered to the interaction's request, as the verifier's proxy passed it. */
export interface AnswerSeen {
  method: string;
  path: string;
  status: number;
  contentType: string;
  location: string | null;
  /** The start of the body, as text. */
  body: string;
}

/** Kinds of cause, in the order the closing table lists them, each with its row's words. */
export const CAUSE_KINDS = {
  state: 'a provider state was not set up',
  request: 'the request got no answer',
  csrf: '403 on a write (CSRF)',
  html: 'HTML where JSON was expected',
  notJson: 'another type than JSON',
  redirect: 'a redirect',
  status: 'another status',
  type: 'a value of another type',
  missing: 'a field missing',
  empty: 'an empty list',
  value: 'a value the pact does not allow',
} as const;

export type CauseKind = keyof typeof CAUSE_KINDS;

export interface Cause {
  kind: CauseKind;
  /** One line, in a backend developer's words. */
  text: string;
}

export interface FailureFacts {
  method: string;
  path: string;
  /** The status the pact expects. */
  expectedStatus: number;
  /** The interaction's states that were not set up: the state and the endpoint's answer. */
  unsetStates: { state: string; answer: string }[];
  mismatches: VerifierMismatch[];
  /** The verifier's own message when it has no mismatches (the request failed). */
  error?: string;
  answer?: AnswerSeen;
}

const UNSAFE = new Set(['PUT', 'POST', 'PATCH', 'DELETE']);
export const BASKET_PATH = '/api/catalog/basket';

/** An HTML page by its title (Django's error pages), else the text's start; on one line. */
export function shortText(body: string, max = 300): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1];
  const text = (title ?? body).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** What a Django page of an answer is, when it is one a backend developer should know by name. */
function djangoPage(body: string): string | null {
  if (/DisallowedHost|Invalid HTTP_HOST header/.test(body)) {
    return "Django's DisallowedHost page (check `ALLOWED_HOSTS`)";
  }
  if (/APPEND_SLASH/.test(body)) {
    return "Django's APPEND_SLASH error: the pact's paths have no trailing slash";
  }
  // With DEBUG off a DisallowedHost is this page, and nothing says more.
  if (/^\s*<h1>Bad Request \(400\)<\/h1>\s*$/.test(body)) {
    return "Django's plain 400 page, which is what a DisallowedHost gives with DEBUG off (check `ALLOWED_HOSTS`)";
  }
  return null;
}

/** The `detail` (or the whole JSON, shortened) of a JSON answer, or null. */
function jsonDetail(answer: AnswerSeen | undefined): string | null {
  if (!answer || !/json/i.test(answer.contentType) || !answer.body) return null;
  try {
    const data = JSON.parse(answer.body) as unknown;
    if (data && typeof data === 'object' && 'detail' in data) return String(data.detail);
  } catch {
    // as text
  }
  return shortText(answer.body, 200);
}

const quoted = (text: string) => `«${text}»`;

/** The words for a Pact type name: (Object) -> an object. */
function typeWords(name: string): string {
  const words: Record<string, string> = {
    Object: 'an object',
    Array: 'an array',
    String: 'a string',
    Integer: 'an integer',
    Decimal: 'a decimal number',
    Number: 'a number',
    Boolean: 'a boolean',
    Null: 'null',
  };
  return words[name] ?? name.toLowerCase();
}

/** A value as Pact prints it, shortened for one line. */
const value = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** One body mismatch as "`path` should be …, got …", and its kind. */
export function bodyCause(item: VerifierMismatch): Cause {
  const text = (item.mismatch ?? item.message ?? '').replace(/^Type mismatch: /, '');
  const at = `\`${item.path ?? '$'}\``;
  let match = /^Expected ([\s\S]+) \((\w+)\) to be the same type as [\s\S]+ \((\w+)\)$/.exec(text);
  if (match) {
    return {
      kind: 'type',
      text: `${at} should be ${typeWords(match[3]!)}, got ${typeWords(match[2]!)}`,
    };
  }
  match = /^Expected ([\s\S]+) \((\w+)\) to be (an? [\w ]+?)$/.exec(text);
  if (match && !/null value$/.test(match[3]!)) {
    const got = match[2] === 'String' ? `the string ${value(match[1]!)}` : typeWords(match[2]!);
    return { kind: 'type', text: `${at} should be ${match[3]}, got ${got}` };
  }
  match = /^Expected ([\s\S]+) to match '([\s\S]+)'$/.exec(text);
  if (match) {
    const got = item.actual === 'null' ? 'null' : value(match[1]!);
    // A time the pact wants with its zone, and that came without one.
    if (match[2]!.includes('(Z|[+-]') && /^'\d{4}-\d\d-\d\dT[\d:.]+'$/.test(match[1]!)) {
      return {
        kind: 'value',
        text: `${at} should be a time with its zone (+03:00 or Z), got ${got}`,
      };
    }
    return { kind: 'value', text: `${at} should match \`${match[2]}\`, got ${got}` };
  }
  match = /^Actual map is missing the following keys: (.+)$/.exec(text);
  if (match) {
    const keys = match[1]!.split(', ').map((key) => `\`${key}\``);
    return { kind: 'missing', text: `${at} lacks ${keys.join(', ')}` };
  }
  match = /^Expected \[\] \(size 0\) to have minimum size of (\d+)$/.exec(text);
  if (match) {
    return { kind: 'empty', text: `${at} should hold at least ${match[1]} item, got []` };
  }
  return { kind: 'value', text: `${at}: ${text}` };
}

/** Pact's own words for a status mismatch, without it: what status the pact expects. */
function expectedStatusWords(mismatch: VerifierMismatch | undefined, fallback: number): string {
  const text = mismatch?.mismatch ?? '';
  if (/Successful response/.test(text)) return 'a 2xx';
  return String(mismatch?.expected ?? fallback);
}

/** Why the provider's 403 to a write came, as far as its answer tells. */
function csrfCause(detail: string | null): string {
  const said = detail ? ` (it said: ${detail})` : '';
  if (detail && /Referer/i.test(detail)) {
    return (
      "403 on a write: Django's CSRF check refused the shop's Referer" +
      ' (set `USE_X_FORWARDED_HOST`, with the shop in `ALLOWED_HOSTS`)' +
      said
    );
  }
  if (detail && /CSRF token (missing|incorrect)/i.test(detail)) {
    return `403 on a write: the \`X-CSRFToken\` header did not match the \`csrftoken\` cookie${said}`;
  }
  return `403 on a write: was the \`csrftoken\` cookie set by \`GET ${BASKET_PATH}\`?${said}`;
}

/** The first cause of a failed interaction: the one to look at first. */
export function causeOf(facts: FailureFacts): Cause {
  const [unset] = facts.unsetStates;
  if (unset) {
    return {
      kind: 'state',
      text: `the provider state ${quoted(unset.state)} was not set up: ${unset.answer}`,
    };
  }
  if (facts.mismatches.length === 0) {
    return { kind: 'request', text: `the request got no answer: ${facts.error ?? 'failed'}` };
  }
  const { answer } = facts;
  const statusMismatch = facts.mismatches.find((item) => item.type === 'StatusMismatch');
  const actualStatus = answer?.status ?? Number(statusMismatch?.actual ?? 0);
  const expected = expectedStatusWords(statusMismatch, facts.expectedStatus);

  if (answer && statusMismatch) {
    if (actualStatus >= 300 && actualStatus < 400) {
      const to = answer.location ? ` to \`${answer.location}\`` : '';
      const slash =
        answer.location?.replace(/\?.*$/, '') === `${facts.path}/`
          ? ": the pact's paths have no trailing slash, and the shop follows no redirect"
          : ': the shop follows no redirect';
      return {
        kind: 'redirect',
        text: `\`${facts.method} ${facts.path}\` redirects (${actualStatus})${to}${slash}`,
      };
    }
    if (actualStatus === 403 && UNSAFE.has(facts.method) && facts.expectedStatus !== 403) {
      return { kind: 'csrf', text: csrfCause(jsonDetail(answer)) };
    }
  }
  // Pact keeps the body of an answer of another type than the one it expects.
  const typeMismatch = facts.mismatches.find((item) => item.type === 'BodyTypeMismatch');
  const type =
    answer?.contentType || (typeof typeMismatch?.actual === 'string' ? typeMismatch.actual : '');
  const body =
    answer?.body || (typeof typeMismatch?.actualBody === 'string' ? typeMismatch.actualBody : '');
  if (body && type && !/json/i.test(type) && (statusMismatch || typeMismatch)) {
    // Pact's lines below give the status; the page's title or first words say what it is.
    const page = djangoPage(body) ?? shortText(body, 160);
    if (/html/i.test(type)) return { kind: 'html', text: `HTML where JSON was expected: ${page}` };
    const name = type.split(';')[0]!.trim();
    return { kind: 'notJson', text: `${name} where JSON was expected: ${page}` };
  }
  if (statusMismatch) {
    let text = `answered ${actualStatus} where the pact expects ${expected}`;
    if (actualStatus === 403 && facts.expectedStatus === 401) {
      text += ': a token the backend does not know must answer 401 (token authentication first)';
    }
    if (facts.expectedStatus === 404) text += ': what does not exist must answer 404';
    const detail = jsonDetail(answer);
    return { kind: 'status', text: detail ? `${text} (it said: ${detail})` : text };
  }
  // Of "null or a number", the number's half says what is wrong.
  const bodyMismatch = facts.mismatches.find(
    (item) => item.type === 'BodyMismatch' && !/to be a null value$/.test(item.mismatch ?? ''),
  );
  if (bodyMismatch) return bodyCause(bodyMismatch);
  const [first] = facts.mismatches;
  return { kind: 'value', text: first?.mismatch ?? first?.message ?? first?.type ?? 'failed' };
}
