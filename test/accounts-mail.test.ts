import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { mailSender } from "../src/mail/sender";
import { passwordResetMail } from "../src/mail/templates";
import { mailTo, uniqueEmail } from "./helpers/mail";

describe("mail", () => {
  it("a mail the Worker's sender sends over SMTP (cloudflare:sockets) arrives in the local catcher, escaped", async () => {
    const to = uniqueEmail("mail");
    const link = "https://api.test/dashboard/#/reset/rt_<b>&x";
    await mailSender(env).send(passwordResetMail(to, link));
    const mail = await mailTo(to, /Reset your password/);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain("#/reset/rt_&lt;b&gt;&amp;x");
    expect(mail.html).not.toContain("<b>");
  });

  it("says it is not configured rather than pretending to send", async () => {
    await expect(mailSender({ MAIL_TRANSPORT: "" }).send(passwordResetMail("a@example.com", "https://x/#/r"))).rejects.toThrow(
      /not configured/,
    );
    await expect(mailSender({ MAIL_TRANSPORT: "cloudflare" }).send(passwordResetMail("a@example.com", "https://x/#/r"))).rejects.toThrow(
      /not configured/,
    );
  });
});
