import type { CompanyRegistered, UserRegistered } from "@skyward/contracts/directory";

// The demo world every fresh start gets: two agencies, their companies, supervisors and agents.

/** Published in the README, so it is set only outside production (production seeds random passwords). */
export const DEMO_PASSWORD = "skyward-demo-2026";

type DemoUser = Omit<UserRegistered, "user_id" | "auth_method"> & { key: string; password: boolean };

/** Each with the zone of its city: its receipts, reports and mails write times in it. */
export const demoAgencies = [
  { key: "dnipro", name: "Dnipro Travel", currency: "UAH", time_zone: "Europe/Kyiv" },
  { key: "vistula", name: "Vistula Tours", currency: "PLN", time_zone: "Europe/Warsaw" },
] as const;

export const demoCompanies: (Omit<CompanyRegistered, "company_id" | "agency_id"> & {
  key: string;
  agency: string;
  balance: number;
})[] = [
  {
    key: "dnipro-kyiv",
    agency: "dnipro",
    name: "Dnipro Travel Kyiv",
    currency: "UAH",
    shared_bookings: true,
    balance: 50_000_00,
  },
  {
    key: "dnipro-lviv",
    agency: "dnipro",
    name: "Dnipro Travel Lviv",
    currency: "UAH",
    shared_bookings: false,
    balance: 20_000_00,
  },
  {
    key: "vistula-waw",
    agency: "vistula",
    name: "Vistula Warszawa",
    currency: "PLN",
    shared_bookings: true,
    balance: 8_000_00,
  },
];

const user = (u: Omit<DemoUser, "phone" | "language"> & Partial<DemoUser>): DemoUser => ({
  phone: null,
  language: "en",
  ...u,
});

export const demoUsers: DemoUser[] = [
  user({
    key: "admin",
    email: "admin@skyward.test",
    first_name: "Ada",
    last_name: "Admin",
    user_type: "Admin",
    agency_id: null,
    company_ids: [],
    demo_user: false,
    password: true,
  }),
  user({
    key: "support",
    email: "support@skyward.test",
    first_name: "Sam",
    last_name: "Support",
    user_type: "Support",
    agency_id: null,
    company_ids: [],
    demo_user: false,
    password: false,
  }),
  user({
    // Reads everything (every agency's bookings, balances, the whole event log), changes nothing (issue 14).
    key: "auditor",
    email: "auditor@skyward.test",
    first_name: "Audrey",
    last_name: "Auditor",
    user_type: "Auditor",
    agency_id: null,
    company_ids: [],
    demo_user: false,
    password: false,
  }),
  user({
    key: "dnipro-supervisor",
    email: "supervisor@dnipro.test",
    first_name: "Olena",
    last_name: "Kovalenko",
    user_type: "Supervisor",
    agency_id: "dnipro",
    company_ids: ["dnipro-kyiv", "dnipro-lviv"],
    demo_user: false,
    password: false,
    language: "ua",
    phone: "+380441234567",
  }),
  user({
    key: "dnipro-agent",
    email: "agent@dnipro.test",
    first_name: "Taras",
    last_name: "Shevchuk",
    user_type: "Agent",
    agency_id: "dnipro",
    company_ids: ["dnipro-kyiv"],
    demo_user: false,
    password: false,
    phone: "+380671112233",
  }),
  user({
    key: "dnipro-agent-lviv",
    email: "agent.lviv@dnipro.test",
    first_name: "Iryna",
    last_name: "Bondar",
    user_type: "Agent",
    agency_id: "dnipro",
    company_ids: ["dnipro-lviv"],
    demo_user: false,
    password: false,
  }),
  user({
    key: "vistula-supervisor",
    email: "supervisor@vistula.test",
    first_name: "Marta",
    last_name: "Nowak",
    user_type: "Supervisor",
    agency_id: "vistula",
    company_ids: ["vistula-waw"],
    demo_user: false,
    password: false,
    language: "pl",
  }),
  user({
    key: "vistula-agent",
    email: "agent@vistula.test",
    first_name: "Piotr",
    last_name: "Zielinski",
    user_type: "Agent",
    agency_id: "vistula",
    company_ids: ["vistula-waw"],
    demo_user: false,
    password: true,
    language: "pl",
  }),
  user({
    key: "demo-agent",
    email: "demo@skyward.test",
    first_name: "Dana",
    last_name: "Demo",
    user_type: "Agent",
    agency_id: "dnipro",
    company_ids: ["dnipro-kyiv"],
    demo_user: true,
    password: false,
  }),
];
