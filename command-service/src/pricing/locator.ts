/** An integer in [0, maxExclusive): node:crypto's randomInt in production, a seeded PRNG in the sandbox and tests. */
export type RandomInt = (maxExclusive: number) => number;

/** Digits and capitals without 0/O, 1/I/L, which agents misread when they spell a locator over the phone. */
export const LOCATOR_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const LOCATOR_LENGTH = 6;

const LOCATOR_PATTERN = new RegExp(`^[${LOCATOR_ALPHABET}]{${LOCATOR_LENGTH}}$`);

export function generateLocator(random: RandomInt): string {
  let locator = "";
  for (let i = 0; i < LOCATOR_LENGTH; i++) {
    const index = random(LOCATOR_ALPHABET.length);
    if (!Number.isInteger(index) || index < 0 || index >= LOCATOR_ALPHABET.length) {
      throw new RangeError(`random source returned ${index}, outside [0, ${LOCATOR_ALPHABET.length})`);
    }
    locator += LOCATOR_ALPHABET[index];
  }
  return locator;
}

export function isLocator(text: string): boolean {
  return LOCATOR_PATTERN.test(text);
}
