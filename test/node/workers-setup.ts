import type { TestProject } from "vitest/node";
import { startPageServer } from "./page-server";

/** Global setup of the workerd test project: the customer-site page server. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pages = await startPageServer();
  project.provide("pageServer", pages.origin);
  return () => pages.close();
}
