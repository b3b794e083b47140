import type { UserType } from "./metadata.ts";

/**
 * Which role may use which screen: the one table the navigation and the screens' own guards read (seed spec,
 * section 6, and DESIGN.md section 5: auditors are read-only administrators, so they search and book nothing; the
 * management screens are for supervisors and administrators). A screen listed here for a role is one whose calls
 * that role may make.
 */
export const SCREEN_ROLES = {
  search: ["Agent", "Supervisor", "Admin", "Support"],
  bookings: ["Agent", "Supervisor", "Admin", "Support", "Auditor"],
  sales: ["Agent", "Supervisor", "Admin", "Support", "Auditor"],
  analytics: ["Agent", "Supervisor", "Admin", "Support", "Auditor"],
  channels: ["Supervisor", "Admin", "Support"],
  admin: ["Supervisor", "Admin", "Support"],
  assistant: ["Supervisor", "Admin", "Support"],
  audit: ["Agent", "Supervisor", "Admin", "Support", "Auditor"],
} as const satisfies Record<string, readonly UserType[]>;

export type Screen = keyof typeof SCREEN_ROLES;

/** The screens in the navigation's order. */
export const SCREENS = Object.keys(SCREEN_ROLES) as Screen[];

export const mayUseScreen = (role: UserType, screen: Screen): boolean =>
  (SCREEN_ROLES[screen] as readonly UserType[]).includes(role);
