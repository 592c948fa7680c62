// Session ownership on the page: the id and token the server issued, kept in localStorage,
// and the token sent with every request about that session (servers that ignore it too).

const KEY = "pickwise.session";

function stored() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) || "null");
    return value && typeof value.id === "string" ? value : null;
  } catch {
    return null;
  }
}

let current = stored();

/** The session of this page: read, remember (from a server's answer), forget, and the
 * headers that prove it is ours. */
export const session = {
  id() {
    return current ? current.id : null;
  },
  remember(id, token) {
    if (typeof id !== "string" || !id) return;
    const kept = current && current.id === id ? current.token : null;
    current = { id, token: typeof token === "string" && token ? token : kept };
    localStorage.setItem(KEY, JSON.stringify(current));
  },
  forget() {
    current = null;
    localStorage.removeItem(KEY);
  },
  headers() {
    return current && current.token ? { "X-Session-Token": current.token } : {};
  },
};
