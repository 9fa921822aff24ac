import { z } from "zod";

/** The body of "use this custom hostname" (apart from hostnames.ts, which public reads load and which needs no zod). */
export const customHostnameSchema = z.object({ hostname: z.string().max(300) }).strict();
