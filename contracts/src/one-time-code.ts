/** The e-mailed or spoken sign-in code; a module of its own so a page can show its rules without loading zod. */
export const ONE_TIME_CODE = { digits: 6, ttlMinutes: 10, maxAttempts: 5 } as const;
