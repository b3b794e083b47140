/**
 * The sign-in steps after the e-mail, the code and the password, in one chunk apart from the sign-in page's: a
 * visitor's first load of /sign_in carries the e-mail step only (issue 27's budget). sign-in-panel.tsx loads it as
 * soon as the visitor starts on the e-mail step.
 */
export { CodeStep } from "./code-step.tsx";
export { PasswordStep } from "./password-step.tsx";
