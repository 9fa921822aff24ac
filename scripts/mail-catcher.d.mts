export interface MailCatcher {
  smtpPort: number;
  /** Origin of the web inbox and its REST API (`GET /api/email`). */
  inbox: string;
  stop(): Promise<void>;
}
export function startMailCatcher(options?: { smtpPort?: number; inboxPort?: number; mailDirectory?: string }): Promise<MailCatcher>;
