/**
 * The deployable (wrangler.toml `main`): the front Worker (src/) and the Durable Object
 * classes (actors/) it routes to. It is the one module that sees both, so nothing in src/
 * imports from actors/.
 */
export { default } from "./src/index";
export { Site } from "./actors/site";
export { Workspace } from "./actors/workspace";
export { Hostname } from "./actors/hostname";
export { OperatorSessions } from "./actors/operator-sessions";
export { SignInThrottle } from "./actors/sign-in-throttle";
export { Account } from "./actors/account";
