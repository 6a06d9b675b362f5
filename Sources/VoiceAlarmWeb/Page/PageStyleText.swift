/// The page's style: one column, phone first (usable at 360 px), large targets, visible focus,
/// light and dark.
enum PageStyleText {
    static let css = #"""
    :root { color-scheme: light dark; --accent: #2457c5; --danger: #b3261e; --muted: #666; --line: #ccc; }
    @media (prefers-color-scheme: dark) { :root { --accent: #8fb0ff; --danger: #ff8a80; --muted: #aaa; --line: #444; } }
    * { box-sizing: border-box; }
    /* A word longer than the line (a folder's path, a long title) wraps: the page is never wider than the phone. */
    body { margin: 0; font: 16px/1.45 system-ui, sans-serif; overflow-wrap: anywhere; }
    main { max-width: 40rem; margin: 0 auto; padding: 0.75rem; }
    h1 { font-size: 1.4rem; margin: 0.25rem 0 0.5rem; }
    h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
    label { display: block; margin: 0.6rem 0 0.2rem; font-weight: 600; }
    input, select, button { font: inherit; min-height: 44px; }
    input[type=text], input:not([type]), input[type=time], input[type=date], input[type=number], select { width: 100%; padding: 0.4rem; }
    button { padding: 0.4rem 0.9rem; border-radius: 0.4rem; border: 1px solid var(--accent); background: transparent; color: var(--accent); cursor: pointer; }
    button.primary { background: var(--accent); color: #fff; }
    button.danger { border-color: var(--danger); color: var(--danger); }
    button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    ul.items { list-style: none; padding: 0; margin: 0; }
    ul.items > li { border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.6rem; margin: 0.5rem 0; }
    .row { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; }
    .time { font-size: 1.6rem; font-weight: 700; }
    .muted { color: var(--muted); font-size: 0.9rem; }
    .warning { color: var(--danger); }
    .switch { display: flex; align-items: center; gap: 0.5rem; font-weight: 600; margin: 0.4rem 0; }
    .switch input { width: 1.6rem; height: 1.6rem; min-height: 0; }
    fieldset { border: 1px solid var(--line); border-radius: 0.5rem; margin: 0.6rem 0; }
    fieldset label { display: inline-flex; align-items: center; gap: 0.2rem; margin-right: 0.6rem; font-weight: 400; }
    #ringing { border: 3px solid var(--danger); border-radius: 0.6rem; padding: 0.75rem; margin: 0.5rem 0; }
    #ringing button { font-size: 1.3rem; min-height: 64px; flex: 1; }
    meter { width: 100%; height: 1.5rem; }
    img.picture { width: 100%; height: auto; border: 1px solid var(--line); }
    [hidden] { display: none !important; }
    """#
}
