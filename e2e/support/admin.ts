/** The first account of the e2e server, made by the accounts flow. */
export const ADMIN = {
  name: "Ada Admin",
  email: "ada@example.com",
  password: "spindle-e2e-password",
} as const;

/** Where the accounts flow leaves the admin's signed-in browser state for the other flows. */
export const ADMIN_STATE = "e2e/.auth/admin.json";
