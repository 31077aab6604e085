/**
 * The browser-test server's JWT secret, fixed so a test can sign what the server signs
 * with it (the cancel link of a renewal notice) without any product endpoint for that.
 * Only for the throwaway server of tests/helpers/e2e-server.ts.
 */
export const e2eJwtSecret = "e2e-jwt-secret-for-browser-tests-only-0000";
