/** "Taras Shevchuk" → "TS"; an account without names falls back to its e-mail's first letter. */
export function initials(account: { first_name: string; last_name: string; email: string }): string {
  const letters = [account.first_name, account.last_name]
    .map((name) => name.trim().charAt(0))
    .join("")
    .toUpperCase();
  return letters || account.email.charAt(0).toUpperCase();
}

export function fullName(account: { first_name: string; last_name: string; email: string }): string {
  return `${account.first_name} ${account.last_name}`.trim() || account.email;
}
