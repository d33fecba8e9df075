// The REST API of the server (docs/web.md): JSON in, JSON out, errors as ApiError.

/** An error answer of the server: HTTP status, the field at fault and its message. */
export class ApiError extends Error {
  constructor(status, field, message) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

/** Call the API; `body` is sent as JSON. Resolves with the parsed answer, rejects with ApiError. */
export async function api(path, { method = "GET", body, signal } = {}) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" }, signal };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, "$", "network");
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json().catch(() => null) : null;
  if (!response.ok) {
    throw new ApiError(response.status, data?.field ?? "$", data?.message ?? `HTTP ${response.status}`);
  }
  return data;
}

/** GET that answers null for 404/401/409 instead of failing (optional endpoints, missing sessions). */
export async function apiOptional(path) {
  try {
    return await api(path);
  } catch (error) {
    if (error instanceof ApiError && [401, 404, 405, 409].includes(error.status)) return null;
    throw error;
  }
}

const cache = new Map();

/** A GET whose answer does not change while the page lives (games, bots, card packs), fetched once. */
export function apiCached(path, { optional = false } = {}) {
  if (!cache.has(path)) {
    const promise = (optional ? apiOptional(path) : api(path)).catch((error) => {
      cache.delete(path);
      throw error;
    });
    cache.set(path, promise);
  }
  return cache.get(path);
}
