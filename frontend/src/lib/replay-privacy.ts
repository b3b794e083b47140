import type { sessionReplayPlugin } from "@amplitude/plugin-session-replay-browser";

/**
 * What session replays may show. Masked by default: every text and every input is recorded as asterisks (the SDK's
 * "conservative" level), and only the product's own chrome, which never carries anyone's data, is shown: the main
 * navigation, page titles, table headers and tabs (not form labels: a checkbox may be labelled with a passenger).
 * An element that shows personal data (names, documents, dates of birth, contacts, e-mails, card details) is marked
 * with `personalData` and left out of the replay altogether (an empty box of its size): its text, its inputs and its
 * attributes (an aria-label naming the user) never leave the browser, even inside the chrome that is shown.
 */
export const PERSONAL_DATA_ATTRIBUTE = "data-personal";
const PERSONAL = `[${PERSONAL_DATA_ATTRIBUTE}]`;

/** Spread on an element that shows personal data: `<Text {...personalData}>{passenger.name}</Text>`. */
export const personalData = { [PERSONAL_DATA_ATTRIBUTE]: "" } as const;

type PrivacyConfig = NonNullable<NonNullable<Parameters<typeof sessionReplayPlugin>[0]>["privacyConfig"]>;

/** The session-replay plugin's privacy settings (@amplitude/plugin-session-replay-browser `privacyConfig`). */
export const REPLAY_PRIVACY: PrivacyConfig = {
  defaultMaskLevel: "conservative",
  // Blocked rather than masked (a stronger guard, and the SDK keeps one kind per selector when it joins remote settings).
  blockSelector: [PERSONAL],
  unmaskSelector: ["nav", "h1", "thead", '[role="tab"]'],
};
