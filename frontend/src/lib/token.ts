// The console token arrives once in the URL fragment (#token=…). It is kept in
// sessionStorage so a reload keeps working, and removed from the visible URL.
export const TOKEN_KEY = 'fixthis.consoleToken';

/** Extracts the token from a fragment like "#token=abc&x=1"; returns the rest of the fragment too. */
export function splitTokenFromHash(hash: string): { token: string | null; rest: string } {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!raw) return { token: null, rest: '' };
  const params = new URLSearchParams(raw);
  const token = params.get('token');
  params.delete('token');
  const rest = params.toString();
  return { token: token && token.length > 0 ? token : null, rest: rest ? `#${rest}` : '' };
}

export interface TokenEnv {
  location: { hash: string; pathname: string; search: string };
  history: { replaceState(data: unknown, unused: string, url?: string): void };
  sessionStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };
}

/** Reads the token from the fragment or sessionStorage; strips it from the address bar. */
export function initToken(env: TokenEnv): string | null {
  const { token, rest } = splitTokenFromHash(env.location.hash);
  if (token) {
    try {
      env.sessionStorage.setItem(TOKEN_KEY, token);
    } catch {
      // storage may be disabled; the token then lives in memory only
    }
    env.history.replaceState(null, '', `${env.location.pathname}${env.location.search}${rest}`);
    return token;
  }
  try {
    return env.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Adds ?consoleToken= to an API URL (EventSource and <img> cannot send headers). */
export function withToken(url: string, token: string | null): string {
  if (!url) return url;
  const abs = url.startsWith('/') || /^[a-z]+:/i.test(url) ? url : `/${url.replace(/^\.\//, '')}`;
  if (!token) return abs;
  const sep = abs.includes('?') ? '&' : '?';
  return `${abs}${sep}consoleToken=${encodeURIComponent(token)}`;
}
