/**
 * The sandbox's own answers over plain HTTP, signed in as a demo client: function and e2e tests compare
 * what the cells show with these.
 */
export interface RawService {
  /** The bearer token these requests use (also what a person would paste as a manual token). */
  token: string;
  get<T = unknown>(path: string, query?: Record<string, string | number>): Promise<T>;
  post<T = unknown>(path: string, body: unknown): Promise<T>;
  /** A file behind a redirect (a job's results): fetch follows it, dropping the token for the other origin. */
  download(path: string): Promise<Uint8Array>;
}

export async function rawService(url: string, clientId: string, clientSecret: string): Promise<RawService> {
  const tokenResponse = await fetch(`${url}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  if (!tokenResponse.ok) throw new Error(`token: ${tokenResponse.status} ${await tokenResponse.text()}`);
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  const answer = async <T>(response: Response): Promise<T> => {
    if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    token,
    get: async (path, query = {}) => {
      const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
      return answer(await fetch(`${url}/v1${path}?${search}`, { headers }));
    },
    post: async (path, body) =>
      answer(await fetch(`${url}/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) })),
    download: async (path) => {
      const response = await fetch(`${url}/v1${path}`, { headers });
      if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}
