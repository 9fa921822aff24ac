/** Every operation of the API, in the order the document lists them. Add an endpoint's entry to its area's file. */
import { contentOperations } from "../content/operations";
import { dashboardOperations } from "../dashboard/operations";
import { historyOperations } from "../dashboard/history-operations";
import { previewOperations } from "../preview/operations";
import { serviceOperations } from "./service-operations";
import { sessionOperations } from "../accounts/session-operations";
import { accountOperations } from "../accounts/operations";
import { ssrOperations } from "../ssr/operations";
import { redirectOperations } from "../ssr/redirect-operations";
import { workspaceOperations } from "../dashboard/workspace-operations";
import { mediaOperations } from "../media/operations";
import { webhookOperations } from "../dashboard/webhook-operations";
import { localeOperations } from "../dashboard/locale-operations";
import { transferOperations } from "../dashboard/export-operations";
import { importOperations } from "../imports/operations";
import type { Operation } from "../openapi/registry";

export const OPERATIONS: readonly Operation[] = [
  ...contentOperations,
  ...dashboardOperations,
  ...mediaOperations,
  ...historyOperations,
  ...previewOperations,
  ...workspaceOperations,
  ...ssrOperations,
  ...redirectOperations,
  ...webhookOperations,
  ...localeOperations,
  ...transferOperations,
  ...importOperations,
  ...sessionOperations,
  ...accountOperations,
  ...serviceOperations,
];
