/**
 * The contracts' schemas the app shell and the sign-in page check responses with. They (and zod with them) load
 * with the first response that needs them rather than with the first page; one module, imported once, so every
 * caller shares one load.
 */
export { SignInResponse, StartSignInResponse } from "@skyward/contracts/account";
export { ErrorEnvelope } from "@skyward/contracts/errors";
export { comparePositions, Position, parsePosition } from "@skyward/contracts/position";
