/// The one stylesheet, served by the binary itself (nothing is loaded from the network): light
/// and dark by the system's choice, one column that fits 390 px.
import Views

enum Stylesheet {
  static let css = """
    :root { color-scheme: light dark; --bg: #fbfaf8; --fg: #1d1d1f; --muted: #5f6368; --line: #dadce0;
      --card: #ffffff; --accent: #0b57d0; --accent-fg: #ffffff; --late: #b3261e; --ok: #1e6b3a; }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #161618; --fg: #ececf1; --muted: #a4a7ad; --line: #3a3b3f; --card: #1f2023;
        --accent: #a8c7fa; --accent-fg: #062e6f; --late: #f28b82; --ok: #81c995; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg);
      font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
    header { display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; align-items: baseline; padding: .75rem 1rem;
      border-bottom: 1px solid var(--line); }
    .brand { font-weight: 700; letter-spacing: .02em; }
    nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; min-width: 0; }
    nav a { color: var(--fg); text-decoration: none; }
    nav a[aria-current="page"] { text-decoration: underline; text-underline-offset: .3em; font-weight: 600; }
    main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
    h1 { font-size: 1.6rem; margin: .5rem 0 .25rem; }
    h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
    section { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: .9rem 1rem;
      margin: 1rem 0; }
    section > :last-child { margin-bottom: 0; }
    .lede, .quiet { color: var(--muted); margin-top: 0; }
    ul { list-style: none; margin: 0; padding: 0; }
    li { padding: .4rem 0; border-top: 1px solid var(--line); }
    li:first-child { border-top: 0; }
    .doses li { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
    .time { font-variant-numeric: tabular-nums; font-weight: 600; }
    .name { flex: 1 1 8rem; overflow-wrap: anywhere; }
    .badge { font-size: .8rem; padding: .05rem .5rem; border-radius: 1rem; border: 1px solid var(--line); }
    .badge.late { color: var(--late); border-color: var(--late); }
    .actions { display: flex; gap: .5rem; }
    form { margin: 0; }
    button { font: inherit; padding: .35rem .9rem; border-radius: .4rem; border: 1px solid var(--accent);
      background: var(--accent); color: var(--accent-fg); cursor: pointer; }
    button.secondary { background: transparent; color: var(--fg); border-color: var(--line); }
    button:focus-visible, a:focus-visible { outline: 3px solid var(--fg); outline-offset: 2px; }
    .goals li { display: grid; grid-template-columns: minmax(6rem, 1fr) 2fr; gap: .25rem .75rem; align-items: center; }
    .goals li span:last-child { grid-column: 2; color: var(--muted); font-size: .9rem; }
    meter { width: 100%; height: 1rem; }
    dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
    dt { color: var(--muted); }
    dd { margin: 0; overflow-wrap: anywhere; }
    dd.advice { grid-column: 1 / -1; color: var(--late); }
    .alert { border: 1px solid var(--late); color: var(--late); border-radius: .4rem; padding: .6rem .8rem; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
      white-space: nowrap; }
    time { font-variant-numeric: tabular-nums; }
    a { color: var(--accent); }
    a.button { display: inline-block; padding: .35rem .9rem; border-radius: .4rem; border: 1px solid var(--accent);
      background: var(--accent); color: var(--accent-fg); text-decoration: none; }
    a.button.secondary { background: transparent; color: var(--fg); border-color: var(--line); }
    button.danger { background: var(--late); border-color: var(--late); color: var(--bg); }
    .row { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
    .field { display: flex; flex-direction: column; gap: .15rem; margin: 0 0 .8rem; }
    .field label { font-weight: 600; }
    .hint { color: var(--muted); font-size: .85rem; }
    input, select, textarea { font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--line);
      border-radius: .35rem; padding: .35rem .5rem; max-width: 100%; }
    input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
    .field.invalid input, .field.invalid select, .field.invalid textarea { border-color: var(--late); }
    .field-error { color: var(--late); font-size: .9rem; }
    .check { display: flex; gap: .5rem; align-items: center; margin: 0 0 .8rem; }
    .records li { display: flex; flex-wrap: wrap; gap: .25rem .6rem; align-items: baseline; }
    .records .place { flex: 1 1 10rem; overflow-wrap: anywhere; }
    .figures { flex-basis: 100%; color: var(--muted); font-size: .9rem; }
    .badge.scheduled { color: var(--accent); border-color: var(--accent); }
    .badge.cancelled { color: var(--muted); }
    .badge.done { color: var(--ok); border-color: var(--ok); }
    .changes li { align-items: center; }
    .changes .summary { flex: 1 1 14rem; overflow-wrap: anywhere; }
    .number { color: var(--muted); font-variant-numeric: tabular-nums; }
    code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .85rem; color: var(--muted); }
    .field input, .field select, .field textarea { max-width: 30rem; }
    table.calendar { width: 100%; border-collapse: separate; border-spacing: 3px; table-layout: fixed; }
    .calendar th { font-weight: 500; color: var(--muted); font-size: .85rem; }
    .calendar td { text-align: center; padding: 0; border-radius: .35rem; }
    .calendar td a { display: block; padding: .45rem 0; color: var(--fg); text-decoration: none; border-radius: .35rem;
      font-variant-numeric: tabular-nums; border: 2px solid transparent; }
    .calendar td.period, .swatch.period { background: #c62828; }
    .calendar td.period a { color: #fff; }
    .calendar td.predicted, .swatch.predicted { background: #f4c7c3; }
    .calendar td.fertile, .swatch.fertile { background: #c8e6c9; }
    .calendar td.ovulation, .swatch.ovulation { background: #66bb6a; }
    .calendar td.infertile, .swatch.infertile { background: #e0e0e0; }
    .calendar td.predicted a, .calendar td.fertile a, .calendar td.ovulation a, .calendar td.infertile a { color: #1d1d1f; }
    .calendar td.today a, .swatch.today { border-color: var(--accent); font-weight: 700; }
    .calendar td.chosen a { outline: 2px dashed var(--fg); outline-offset: -4px; }
    .swatch { display: inline-block; width: .9rem; height: .9rem; border-radius: .2rem; border: 2px solid transparent;
      vertical-align: middle; margin-right: .3rem; }
    .calendar-legend li { font-size: .85rem; }
    @media (max-width: 480px) { table.calendar { border-spacing: 2px; } .calendar td a { padding: .35rem 0; } }
    .switch a[aria-current="page"] { font-weight: 700; color: var(--fg); text-decoration: none; }
    ol.sources { list-style: none; padding: 0; }
    .sources li { align-items: center; }
    .sources .name { flex: 1 1 10rem; }
    details { margin-top: .75rem; }
    summary { cursor: pointer; color: var(--accent); }
    table.figures-table { border-collapse: collapse; width: 100%; margin-top: .5rem; font-size: .9rem; }
    .figures-table th, .figures-table td { text-align: left; padding: .2rem .5rem; border-bottom: 1px solid var(--line); }
    h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
    .badge.phase-green { background: #2f7d32; color: #fff; border-color: #2f7d32; }
    .badge.phase-yellow { background: #c9a400; color: #000; border-color: #c9a400; }
    .badge.phase-red { background: #c62828; color: #fff; border-color: #c62828; }
    .badge.phase-dark-red { background: #6d0f0f; color: #fff; border-color: #6d0f0f; }
    fieldset.question { border: 0; margin: 0; padding: .5rem 0; }
    fieldset.question legend { padding: 0; margin-bottom: .3rem; }
    label.choice { display: inline-flex; gap: .35rem; align-items: center; margin-right: 1.5rem; }
    .verdict { font-weight: 600; }
    .reasons { list-style: disc; padding-left: 1.25rem; }
    .reasons li { border: 0; padding: .1rem 0; }
    figure.chart { margin: 0; }
    figcaption, ul.legend { color: var(--muted); font-size: .85rem; }
    ul.legend { display: flex; flex-wrap: wrap; gap: .2rem 1rem; }
    /* On a phone a chart keeps a readable width and scrolls in its frame, opening at its right
       end: the newest days, what a person looks for first (a calendar, whose weeks fill only its
       left part, at its start); its value axis stays pinned at the frame's left edge. */
    @media (max-width: 720px) {
      div.plot { overflow-x: auto; direction: rtl; }
      div.plot svg { min-width: 520px; direction: ltr; }
      figure.opens-at-start div.plot { direction: ltr; }
      \(ChartStyle.pinnedAxis(minWidth: 520))
    }
    figure.chart { --chart-ground: var(--card); }
    ul.legend li { border: 0; padding: 0; display: flex; gap: .3rem; align-items: center; }
    \(ChartStyle.light)
    @media (prefers-color-scheme: dark) {
      \(ChartStyle.dark)
    }
    """
}
