/**
 * A hint in local storage that a session may exist (the session cookie is HttpOnly): public pages ask for the session
 * only then, and the language catalogues of the signed-in screens load at start only then. No imports, so the i18n
 * set-up can read it before the session module (which needs i18n) is evaluated.
 */
const SESSION_HINT_KEY = "skyward.session";

export function sessionHinted(): boolean {
  try {
    return window.localStorage.getItem(SESSION_HINT_KEY) === "1";
  } catch {
    return false;
  }
}

export function setSessionHint(signedIn: boolean): void {
  try {
    if (signedIn) window.localStorage.setItem(SESSION_HINT_KEY, "1");
    else window.localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // Storage disabled: public pages then show the signed-out header until a guarded page is opened.
  }
}

/** The pages anyone may open (home, sign-in, legal texts, API reference); every other page asks for the session. */
export function isPublicPage(pathname: string): boolean {
  return /^\/(sign_in|legal\/[^/]+|docs)?\/?$/.test(pathname);
}
