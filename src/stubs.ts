/** Where each object lives: one Site per site id, one Workspace per workspace id, one Hostname per hostname. */
export const siteStub = (env: Env, siteId: string) => env.SITE.get(env.SITE.idFromName(siteId));
export const workspaceStub = (env: Env, workspaceId: string) => env.WORKSPACE.get(env.WORKSPACE.idFromName(workspaceId));
export const hostnameStub = (env: Env, hostname: string) => env.HOSTNAME.get(env.HOSTNAME.idFromName(hostname));
/** The operator's dashboard sessions live in one object. */
export const operatorSessionsStub = (env: Env) => env.OPERATOR_SESSIONS.get(env.OPERATOR_SESSIONS.idFromName("operator"));
/** Wrong sign-in keys are counted per client address. */
export const signInThrottleStub = (env: Env, client: string) => env.SIGN_IN_THROTTLE.get(env.SIGN_IN_THROTTLE.idFromName(client));
/** One object per person, named by the account id derived from their normalised email (src/accounts/email.ts). */
export const accountStub = (env: Env, accountId: string) => env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
