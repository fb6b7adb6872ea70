/// The console's stylesheet, served as `/__admin/ui/console.css`.
enum ConsoleStyle {
    static let css = #"""
    :root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --bg: #fff; --accent: #1f6feb; --bad: #cf222e; --ok: #1a7f37; --warn: #9a6700; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); }
    body.home { max-width: 50rem; margin: 3rem auto; padding: 0 1rem; }
    header { display: flex; align-items: center; gap: 1rem; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: #f6f8fa; position: sticky; top: 0; z-index: 2; }
    header h1 { font-size: 1.1rem; margin: 0; }
    header h1 a { color: inherit; text-decoration: none; }
    .subtitle { color: var(--muted); font-weight: normal; }
    .model { color: var(--muted); margin-left: auto; }
    .connection { padding: .1rem .5rem; border-radius: 1rem; font-size: .85rem; border: 1px solid var(--line); }
    .connection[data-state="live"] { color: var(--ok); border-color: var(--ok); }
    .connection[data-state="reconnecting"], .connection[data-state="connecting"] { color: var(--warn); border-color: var(--warn); }
    button { font: inherit; padding: .2rem .7rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; }
    button:hover { border-color: var(--accent); }
    main { padding: 1rem; display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 1rem; }
    .filters { display: flex; flex-wrap: wrap; gap: .8rem; align-items: center; margin-bottom: .8rem; }
    .filters input, .filters select { font: inherit; padding: .15rem .3rem; }
    .token-form { padding: 1rem; background: #fff8c5; border-bottom: 1px solid var(--line); }
    .error { color: var(--bad); margin-left: .5rem; }
    .buffered { color: var(--warn); margin: .3rem 0; }
    table { border-collapse: collapse; width: 100%; }
    th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    th { font-weight: 600; color: var(--muted); font-size: .85rem; }
    .feed tbody tr { cursor: pointer; }
    .feed tbody tr:hover { background: #f6f8fa; }
    .feed tbody tr.selected { background: #ddf4ff; }
    .feed tbody tr.issues td.findings { color: var(--bad); font-weight: 600; }
    .feed tbody tr.upstream-differs td.answer { background: #fff1e5; box-shadow: inset 3px 0 0 #bc4c00; }
    .feed td.answer { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
    .feed tr.fresh { animation: fresh 1.5s ease-out; }
    @keyframes fresh { from { background: #fff8c5; } to { background: transparent; } }
    .empty, .hint { color: var(--muted); }
    .details { width: 34rem; max-width: 45vw; min-width: 0; border-left: 1px solid var(--line); padding-left: 1rem; overflow-wrap: anywhere; }
    /* Long unbroken values (a device id, a receipt) wrap inside their cell, never past the panel. */
    .feed td:nth-child(3), .params td + td, .json { overflow-wrap: anywhere; }
    .feed td:nth-child(3) { max-width: 18rem; }
    .details-head { display: flex; gap: .5rem; align-items: center; }
    .details-head h2 { font-size: 1rem; margin: 0 auto 0 0; }
    .details h3 { font-size: .9rem; margin: 1rem 0 .3rem; color: var(--muted); }
    .json { background: #f6f8fa; padding: .5rem; border-radius: 6px; white-space: pre-wrap; font: .85rem/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; margin: 0; }
    .params td:first-child { font-family: ui-monospace, Menlo, monospace; color: var(--muted); white-space: nowrap; }
    .params td:last-child { font-family: ui-monospace, Menlo, monospace; }
    .findings { padding-left: 1.2rem; margin: 0; }
    .findings li { margin-bottom: .4rem; }
    .findings .code { font-family: ui-monospace, Menlo, monospace; color: var(--bad); }
    .findings .none { color: var(--ok); }
    .curl-text { width: 100%; height: 6rem; font: .8rem ui-monospace, Menlo, monospace; }
    .coverage { margin-top: 2rem; }
    .coverage h2 { font-size: 1rem; }
    .coverage tr.never td { color: var(--bad); }
    .coverage td.when { font-family: ui-monospace, Menlo, monospace; font-size: .8rem; }
    .lanes svg { width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
    .lanes .lane-label { font: 600 13px sans-serif; fill: var(--muted); }
    .lanes .axis { font: 11px sans-serif; fill: var(--muted); }
    .lanes .fine { fill: none; stroke: var(--accent); stroke-width: 2; }
    .lanes .point { fill: var(--accent); stroke: #fff; stroke-width: 1.5; cursor: pointer; }
    .lanes .point.issues { fill: var(--bad); }
    .lanes .lock { stroke: var(--bad); stroke-width: 2; }
    .lanes .band-0 { fill: #dafbe1; } .lanes .band-1 { fill: #fff8c5; } .lanes .band-2 { fill: #ffebe9; }
    .lanes .lane-line { stroke: var(--line); }
    .legend { color: var(--muted); font-size: .85rem; }
    a { color: var(--accent); }
    """#
}
