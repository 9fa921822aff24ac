import { useEffect } from "preact/hooks";
import { sessionLost } from "./api";
import { route } from "./router";
import { SignIn } from "./screens/sign-in";
import { CreateAccount, Forgot, Reset, Verify } from "./screens/account-entry";
import { Invite } from "./screens/invite";
import { StopInvitations } from "./screens/stop-invitations";
import { Shell } from "./shell";
import { endedElsewhere, refreshSession, replacedKey, session } from "./session";

export function App() {
  useEffect(() => void refreshSession(), []);
  const s = session.value;
  if (s === undefined) return <p class="loading">Loading…</p>;
  // A mailed link works whoever is signed in on this browser (its secret is in the fragment).
  const [first, token, proof] = route.value;
  if (first === "verify" && token) return <Verify token={token} />;
  if (first === "reset" && token) return <Reset token={token} />;
  if (first === "invite" && token) return <Invite token={token} proof={proof} />;
  if (first === "stop-invitations" && token) return <StopInvitations token={token} />;
  // The security mails' "secure your account" link: a reset, whoever is signed in here.
  if (first === "forgot") return <Forgot />;
  if ((s === null || sessionLost.value) && first === "sign-up") return <CreateAccount />;
  if (s === null || sessionLost.value) return <SignIn ended={s !== null || endedElsewhere.value} newKey={replacedKey.value} />;
  return <Shell session={s} path={route.value} />;
}
