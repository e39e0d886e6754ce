// Where an authorization server sends the sign-in window back (the redirect URI LineUp registers). It hands the
// answer's query — code, state and iss, or an error — to the page that opened the sign-in, on a channel of this
// origin only, removes it from this window's address and history, and closes. The page checks the state.
(() => {
  const search = window.location.search;
  window.history.replaceState(null, '', window.location.pathname);
  const channel = new BroadcastChannel('lineup-oauth');
  channel.postMessage({ type: 'lineup-oauth-callback', search });
  channel.close();
  const status = document.getElementById('status');
  if (status) status.textContent = 'Signed in: you can close this window.';
  window.close();
})();
