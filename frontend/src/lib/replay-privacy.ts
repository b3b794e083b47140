import type { sessionReplayPlugin } from "@amplitude/plugin-session-replay-browser";
import { PERSONAL_DATA_ATTRIBUTE } from "./personal-data.ts";

/**
 * What session replays may show. Masked by default: every text and every input is recorded as asterisks (the SDK's
 * "conservative" level), and only the product's own chrome, which never carries anyone's data, is shown: the main
 * navigation, page titles, table headers and tabs (not form labels: a checkbox may be labelled with a passenger).
 * An element that shows personal data (names, documents, dates of birth, contacts, e-mails, card details) is marked
 * with `personalData` (personal-data.ts) and left out of the replay altogether (an empty box of its size): its text,
 * its inputs and its attributes (an aria-label naming the user) never leave the browser, even inside the chrome that
 * is shown.
 */
const PERSONAL = `[${PERSONAL_DATA_ATTRIBUTE}]`;

type PrivacyConfig = NonNullable<NonNullable<Parameters<typeof sessionReplayPlugin>[0]>["privacyConfig"]>;

/** The session-replay plugin's privacy settings (@amplitude/plugin-session-replay-browser `privacyConfig`). */
export const REPLAY_PRIVACY: PrivacyConfig = {
  defaultMaskLevel: "conservative",
  // Blocked rather than masked (a stronger guard, and the SDK keeps one kind per selector when it joins remote settings).
  blockSelector: [PERSONAL],
  unmaskSelector: ["nav", "h1", "thead", '[role="tab"]'],
};

type SendEvents = NonNullable<NonNullable<Parameters<typeof sessionReplayPlugin>[0]>["handleSendEvents"]>;
type SendEventsRequest = Parameters<SendEvents>[0];

/**
 * Page addresses go into a replay as they are (rrweb's page records, the URL-change events); a query parameter that
 * holds what a user typed (the sales list's filter: a passenger's name, perhaps) is written `***` instead.
 */
const TYPED_PARAMETER = /([?&]text=)[^&#"\\\s]*/g;
export const scrubTypedParameters = (text: string): string => text.replace(TYPED_PARAMETER, "$1***");

const through = async (body: string | Uint8Array, stream: CompressionStream | DecompressionStream) =>
  new Uint8Array(await new Response(new Blob([body as BlobPart]).stream().pipeThrough(stream)).arrayBuffer());

/**
 * The replay upload (the plugin's `handleSendEvents`): the batch is sent as the SDK made it, its page addresses
 * scrubbed first (unpacked and packed again when the SDK gzipped it).
 */
export async function sendScrubbedReplay(request: SendEventsRequest): Promise<Response> {
  const gzipped = typeof request.body !== "string";
  const text = gzipped
    ? new TextDecoder().decode(await through(request.body, new DecompressionStream("gzip")))
    : (request.body as string);
  const scrubbed = scrubTypedParameters(text);
  const body = gzipped ? await through(scrubbed, new CompressionStream("gzip")) : scrubbed;
  const send = (keepalive: boolean | undefined) =>
    fetch(request.url, { method: request.method, headers: request.headers, body, keepalive });
  try {
    return await send(request.keepalive);
  } catch (error) {
    // The browser refuses a keepalive request (a network error) while the page's keepalive bodies in flight pass
    // 64 KB: page-exit batches sent close together to a slow collector. The SDK counts a page-exit batch as sent
    // whatever happens, so it would be lost; sent as a plain request it arrives whenever the page lives on.
    if (!request.keepalive) throw error;
    return send(false);
  }
}
