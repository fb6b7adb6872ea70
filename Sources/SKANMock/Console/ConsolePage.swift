/// The QA console's HTML shell: no inline script or style (the Content-Security-Policy allows
/// `'self'` only); `console.js` builds everything from the admin API with DOM nodes and
/// `textContent`, so a value a client sent is always shown as text, never parsed as HTML.
enum ConsolePage {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>skan-mock console</title>
    <link rel="icon" href="/__admin/ui/favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/__admin/ui/console.css">
    <script type="module" src="/__admin/ui/console.js"></script>
    </head>
    <body>
    <header>
      <h1><a href="/__admin/ui">skan-mock</a> <span class="subtitle">QA console</span></h1>
      <span id="connection" class="connection" data-state="connecting">connecting</span>
      <button id="pause" type="button">pause</button>
      <span id="model" class="model"></span>
    </header>
    <form id="token-form" class="token-form" hidden>
      <label>This server needs its admin token (<code>--admin-token</code>):
        <input id="token" type="password" autocomplete="off" required></label>
      <button type="submit">open</button>
      <span id="token-error" class="error"></span>
    </form>
    <main>
      <section id="feed-view">
        <form id="filters" class="filters">
          <label>device <input name="device" size="24"></label>
          <label>endpoint <select name="endpoint">
            <option value="">any</option><option>skan3</option><option>skan4</option><option>launch</option>
            <option>event</option><option>launch2</option><option>event2</option><option>unmatched</option>
          </select></label>
          <label>event <input name="event" size="16"></label>
          <label><input type="checkbox" name="has_issues" value="true"> findings only</label>
          <button type="submit">apply</button>
          <a id="clear-filters" href="/__admin/ui">clear</a>
        </form>
        <p id="buffered" class="buffered" hidden></p>
        <table id="feed" class="feed">
          <thead><tr><th>time</th><th>endpoint</th><th>device</th><th>event</th><th>window</th><th>answer</th><th>findings</th></tr></thead>
          <tbody></tbody>
        </table>
        <p id="empty" class="empty">No requests yet. Point the app at this server and tap through it: requests appear here as they arrive.</p>
        <section id="coverage" class="coverage">
          <h2>Model coverage</h2>
          <p class="hint">Which entries of the loaded model answered how many requests; the ones never used are marked.</p>
          <table><thead><tr><th>window</th><th>entry</th><th>hits</th><th>values</th><th>when</th></tr></thead><tbody></tbody></table>
        </section>
      </section>
      <section id="device-view" hidden>
        <h2 id="device-title"></h2>
        <p><a href="/__admin/ui" id="back">all requests</a></p>
        <div id="lanes" class="lanes"></div>
        <h3>State</h3>
        <pre id="device-state" class="json"></pre>
      </section>
      <aside id="details" class="details" hidden>
        <div class="details-head"><h2 id="details-title"></h2>
          <button id="copy-curl" type="button">copy as curl</button>
          <button id="close-details" type="button">close</button></div>
        <textarea id="curl-text" class="curl-text" readonly hidden></textarea>
        <h3>Findings</h3><ul id="details-findings" class="findings"></ul>
        <h3>Parameters as sent</h3><table id="details-params" class="params"><tbody></tbody></table>
        <h3>SKAN fields as parsed</h3><pre id="details-skan" class="json"></pre>
        <h3>Answer</h3><pre id="details-answer" class="json"></pre>
        <div id="details-other" hidden><h3 id="details-other-title">The upstream answered</h3><pre id="details-other-answer" class="json"></pre></div>
      </aside>
    </main>
    </body>
    </html>
    """#

    static let favicon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f6feb"/><path d="M4 11l3-6 2 4 1-2 2 4" stroke="#fff" stroke-width="1.6" fill="none"/></svg>
    """#

    /// `GET /`: where a QA engineer who types the server's address lands.
    static let home = #"""
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>skan-mock</title>
    <link rel="icon" href="/__admin/ui/favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/__admin/ui/console.css"></head>
    <body class="home"><h1>skan-mock</h1>
    <p>A local stand-in for Singular's SKAdNetwork conversion-value service.</p>
    <p><a href="/__admin/ui">Open the QA console</a>: what the app sends, live, and what was wrong with it.</p>
    <p>Endpoints: <code>/api/v1/conversion_value</code>, <code>/api/v2/conversion_value</code>,
    <code>/api/v1/launch</code>, <code>/api/v1/evt</code>, <code>/api/v2/launch</code>, <code>/api/v2/evt</code>;
    admin API under <code>/__admin</code>.</p></body></html>
    """#
}
