/**
 * Passkeys in the browser: @simplewebauthn/browser (bundled from npm, loaded on first use) turns
 * the API's options into navigator.credentials calls and their answers into JSON. When the
 * browser says no, the person is told why and what to do, as an ApiFailure (status 0) so every
 * form shows it like any other failure.
 */
import { ApiFailure } from "./api";

type Lib = typeof import("@simplewebauthn/browser");
type RegistrationOptions = Parameters<Lib["startRegistration"]>[0]["optionsJSON"];
type AuthenticationOptions = Parameters<Lib["startAuthentication"]>[0]["optionsJSON"];

const lib = (): Promise<Lib> => import("@simplewebauthn/browser");

const isAddress = (host: string): boolean => /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith("[");

/** Why passkeys cannot work on this page (null: they can): an old browser, or an IP address host. */
export function passkeysUnavailable(): string | null {
  if (typeof window === "undefined" || typeof window.PublicKeyCredential !== "function") {
    return "This browser cannot use passkeys. Use a current browser, or sign in with your email and password.";
  }
  if (isAddress(location.hostname)) {
    return `Passkeys need this page opened by name, not by address: open ${location.protocol}//localhost${location.port ? `:${location.port}` : ""}/dashboard/.`;
  }
  return null;
}

const refused = (message: string): ApiFailure => new ApiFailure(0, { code: "passkey_refused", message });

/** What a WebAuthnError (or a DOMException the library passed through) means for the person. */
function explainBrowser(err: unknown, making: boolean): ApiFailure {
  const e = err as { code?: string; name?: string; message?: string; cause?: { name?: string } };
  const name = e.cause?.name ?? e.name;
  switch (e.code) {
    case "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED":
      return refused("This device or security key already holds a passkey for your account. Use another one, or keep the one you have.");
    case "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT":
      return refused("This security key cannot store a passkey. Use this device's own passkeys, or another key.");
    case "ERROR_INVALID_DOMAIN":
    case "ERROR_INVALID_RP_ID":
      return refused(passkeysUnavailable() ?? "The browser refused passkeys for this address. Open the dashboard at its usual address.");
  }
  if (name === "NotAllowedError" || name === "AbortError" || e.code === "ERROR_CEREMONY_ABORTED") {
    return refused(
      making
        ? "The browser's passkey prompt was closed or timed out, so no passkey was made. Try again when you are ready."
        : "The browser's passkey prompt was closed or timed out, or no passkey for this site is on this device. Try again, or sign in with your email and password.",
    );
  }
  if (name === "SecurityError")
    return refused(passkeysUnavailable() ?? "The browser refused passkeys on this page. Reload it and try again.");
  return refused(
    `The browser could not use a passkey (${(e.message ?? "unknown error").slice(0, 120)}). Try again, or use ${making ? "a password" : "your email and password"}.`,
  );
}

/** Makes a passkey with the browser; its answer is for the API's registration endpoints. */
export async function makePasskey(optionsJSON: RegistrationOptions) {
  const why = passkeysUnavailable();
  if (why) throw refused(why);
  const { startRegistration } = await lib();
  try {
    return await startRegistration({ optionsJSON });
  } catch (err) {
    throw explainBrowser(err, true);
  }
}

/** Asks the browser for a passkey of this site; `autofill`: offered in the email field's suggestions (conditional UI). */
export async function usePasskey(optionsJSON: AuthenticationOptions, autofill = false) {
  const why = passkeysUnavailable();
  if (why) throw refused(why);
  const { startAuthentication } = await lib();
  try {
    return await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  } catch (err) {
    throw explainBrowser(err, false);
  }
}

/** Whether the browser can offer passkeys in the email field's autofill. */
export async function autofillAvailable(): Promise<boolean> {
  if (passkeysUnavailable()) return false;
  return (await lib()).browserSupportsWebAuthnAutofill();
}

/** Ends a pending autofill request (leaving the screen, or a button's request replacing it). */
export async function cancelPasskeyRequest(): Promise<void> {
  (await lib()).WebAuthnAbortService.cancelCeremony();
}
