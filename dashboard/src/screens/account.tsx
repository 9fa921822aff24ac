/**
 * Account: who this is, their password (changed through a reset link mailed to them: the API has
 * no other way), their passkeys (account-passkeys.tsx), and the sessions where they are signed in (end any).
 */
import { useState } from "preact/hooks";
import { browserName } from "../browser-name";
import { call, client } from "../api";
import { session, signOut } from "../session";
import { DataTable } from "../data-table";
import { ErrorNotice, Heading, Notice, when } from "../ui";
import { useForm } from "../use-form";
import { useLoad } from "../use-load";
import { PasskeysPanel } from "./account-passkeys";

export function AccountScreen() {
  const s = session.value;
  const [ending, setEnding] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const list = useLoad(() => call(client.GET("/account/sessions")), []);
  const end = async (id: string, current: boolean) => {
    setEnding(id);
    setError(null);
    try {
      if (current) return void (await signOut());
      await call(client.DELETE("/account/sessions/{sessionId}", { params: { path: { sessionId: id } } }));
      list.reload();
    } catch (err) {
      setError(err);
    } finally {
      setEnding(null);
    }
  };
  return (
    <>
      <Heading>Your account</Heading>
      {s?.account && (
        <div class="card">
          <p>
            <strong>{s.account.name}</strong> · {s.account.email}
          </p>
          <p class="small-text">Account created {when(s.account.createdAt)}.</p>
        </div>
      )}
      {s?.account && <PasswordPanel email={s.account.email} hasPassword={s.account.hasPassword} />}
      <PasskeysPanel />
      <section class="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <p>Everywhere you are signed in. End any you do not recognise, then change your password (above).</p>
        <ErrorNotice error={error ?? list.error} />
        <DataTable
          label="Sessions"
          columns={["Browser", "From", "Signed in", "Last used", { hidden: "Actions" }]}
          rows={list.data?.sessions ?? null}
          error={list.error}
          loading="Loading sessions…"
          empty="You are not signed in anywhere else."
          row={(x) => (
            <tr key={x.id}>
              <td>
                <span title={x.userAgent ?? undefined}>{browserName(x.userAgent)}</span>
                {x.current && <strong> (this browser)</strong>}
              </td>
              <td>{[x.ip, x.country].filter(Boolean).join(", ") || "—"}</td>
              <td>{when(x.createdAt)}</td>
              <td>{when(x.lastSeenAt)}</td>
              <td>
                <button
                  type="button"
                  class="secondary small"
                  disabled={ending !== null}
                  aria-label={x.current ? "Sign out of this browser" : `End session signed in ${when(x.createdAt)}`}
                  onClick={() => void end(x.id, x.current)}
                >
                  {ending === x.id ? "Ending…" : x.current ? "Sign out" : "End"}
                </button>
              </td>
            </tr>
          )}
        />
      </section>
    </>
  );
}

/** A new password by the reset link, sent to this account's own address: proof it is still theirs. */
function PasswordPanel(props: { email: string; hasPassword: boolean }) {
  const form = useForm({}, () => call(client.POST("/account/password-reset", { body: { email: props.email } })));
  return (
    <section class="card" aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <p>
        {props.hasPassword ? "To change your password" : "To add a password to your passkeys"}, we send a link to {props.email}: open it and
        choose the new one. It works once, for one hour. Saving it signs you out on every other device and removes your passkeys (add them
        again afterwards).
      </p>
      <ErrorNotice error={form.error} />
      {form.saved && (
        <Notice kind="ok">
          We sent the link to <strong>{props.email}</strong>. Open it from your inbox to choose your new password; if nothing arrives in a
          few minutes, check your spam folder.
        </Notice>
      )}
      <button type="button" class="secondary" disabled={form.pending} onClick={() => void form.submit()}>
        {form.pending ? "Sending…" : props.hasPassword ? "Change password" : "Set a password"}
      </button>
    </section>
  );
}
