/**
 * The mark of an element that shows personal data (names, documents, dates of birth, contacts, e-mails, card
 * details): session replays leave it out altogether (replay-privacy.ts). A module of its own, apart from the replay's
 * settings: those load with the analytics SDK, and the screens that mark their elements carry none of them.
 */
export const PERSONAL_DATA_ATTRIBUTE = "data-personal";

/** Spread on an element that shows personal data: `<Text {...personalData}>{passenger.name}</Text>`. */
export const personalData = { [PERSONAL_DATA_ATTRIBUTE]: "" } as const;
