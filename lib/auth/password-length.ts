/**
 * The length a password must have, in characters: sign-up, a change, an admin's reset. One
 * constant for better-auth's settings, the route's checks and the forms' hints.
 */
export const PASSWORD_LENGTH = { min: 8, max: 256 } as const;
