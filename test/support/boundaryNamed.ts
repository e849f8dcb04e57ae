/** A boundary's id by its exact name and type, from the service's own search (not through the add-in). */
import type { SignedInSandbox } from "./signedInSandbox";

export async function boundaryNamed(
  env: Pick<SignedInSandbox, "raw" | "accountId">,
  name: string,
  geoType: string,
): Promise<number> {
  const found = await env.raw.post<{ data: { attributes: { id: number; name: string } }[] }>(
    "/geo_boundaries/search",
    { account_id: env.accountId, query: name, geo_type: [geoType], limit: 50 },
  );
  const match = found.data.find((entry) => entry.attributes.name === name);
  if (!match) throw new Error(`the sandbox has no ${geoType} named ${name}`);
  return match.attributes.id;
}
