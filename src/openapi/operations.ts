/** Every operation of the API, in the order the document lists them. Add an endpoint's entry to its area's file. */
import { contentOperations } from "../routes/content.operations";
import { dashboardOperations } from "../routes/dashboard.operations";
import { historyOperations } from "../routes/history.operations";
import { previewOperations } from "../routes/preview.operations";
import { serviceOperations } from "../routes/service.operations";
import { sessionOperations } from "../routes/sessions.operations";
import { accountOperations } from "../routes/accounts.operations";
import { ssrOperations } from "../routes/ssr.operations";
import { workspaceOperations } from "../routes/workspaces.operations";
import { mediaOperations } from "../routes/media.operations";
import { webhookOperations } from "../routes/webhooks.operations";
import { transferOperations } from "../routes/transfer.operations";
import type { Operation } from "./registry";

export const OPERATIONS: readonly Operation[] = [
  ...contentOperations,
  ...dashboardOperations,
  ...mediaOperations,
  ...historyOperations,
  ...previewOperations,
  ...workspaceOperations,
  ...ssrOperations,
  ...webhookOperations,
  ...transferOperations,
  ...sessionOperations,
  ...accountOperations,
  ...serviceOperations,
];
