import { loadOpenApiDocument } from "../../sandbox/contract/openapiDocument";

/**
 * src/api/openapi.yaml as parsed from the file (not through the generators), for tests that check generated
 * lists and the add-in against the contract itself. It is the sandbox's parse, which a jest worker's files
 * share (a parse costs a few hundred ms). Typed as yaml's `parse` types it: the tests walk it by path.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const parsedContract = (): any => loadOpenApiDocument();
