import { useEffect } from "preact/hooks";
import { sessionLost } from "./api";
import { route } from "./router";
import { SignIn } from "./screens/sign-in";
import { Shell } from "./shell";
import { endedElsewhere, refreshSession, replacedKey, session } from "./session";

export function App() {
  useEffect(() => void refreshSession(), []);
  const s = session.value;
  if (s === undefined) return <p class="loading">Loading…</p>;
  if (s === null || sessionLost.value) return <SignIn ended={s !== null || endedElsewhere.value} newKey={replacedKey.value} />;
  return <Shell session={s} path={route.value} />;
}
