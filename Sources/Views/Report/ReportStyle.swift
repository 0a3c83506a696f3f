/// The report's styles: A4 in print, a column on screen that charts and wide tables scroll
/// sideways in on a phone rather than shrink past reading, and a dark theme on screen when the
/// system asks for one (print stays black on white).
enum ReportStyle {
  static let css = """
    @page { size: A4; margin: 14mm; }
    * { box-sizing: border-box; }
    html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
    body { font: 11pt/1.4 "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; color: #1b1b1b; background: #fff; margin: 0 auto; max-width: 182mm; padding: 8mm 0; }
    header h1 { font-size: 20pt; margin: 0; }
    header p { margin: 2pt 0 10pt; color: #555; }
    header, section { display: flow-root; }
    section { break-inside: avoid; page-break-inside: avoid; margin: 0 0 10pt; }
    h2 { font-size: 13pt; border-bottom: 1px solid #bbb; padding-bottom: 2pt; margin: 8pt 0 6pt; }
    table { border-collapse: collapse; width: 100%; margin: 4pt 0; font-size: 10pt; }
    th, td { text-align: left; padding: 2pt 6pt; border-bottom: 1px solid #e3e3e3; vertical-align: top; }
    thead th { border-bottom: 1px solid #999; }
    p.empty { color: #666; font-style: italic; }
    p.warning { color: #8a4b00; }
    figure.chart { margin: 6pt 0; }
    figcaption { font-size: 9pt; color: #555; }
    ul.legend { list-style: none; padding: 0; margin: 2pt 0; font-size: 9pt; color: #333; display: flex; flex-wrap: wrap; gap: 2pt 14pt; }
    ul.legend li { display: flex; align-items: center; gap: 4pt; }
    svg text { font-family: inherit; font-size: 10px; fill: #333; }
    svg .axis { stroke: #444; stroke-width: 1; }
    svg .grid { stroke: #e2e2e2; stroke-width: 1; }
    svg .axis-label { font-size: 10px; fill: #222; }
    svg .bar { fill: #7d9cc4; }
    svg .bar.met { fill: #3b8f5a; }
    svg .goal, svg .marker { stroke: #b03030; stroke-width: 1.2; stroke-dasharray: 4 3; fill: none; }
    svg .average { stroke: #333; stroke-width: 1; stroke-dasharray: 2 2; }
    svg .marker-label { fill: #b03030; }
    svg .trend { fill: none; stroke: #b03030; stroke-width: 1.5; }
    svg .hb { fill: #fff; stroke: #b03030; stroke-width: 1.5; }
    svg .excluded { fill: #fff; stroke: #999; stroke-width: 1.2; stroke-dasharray: 2 1; }
    svg .donation { fill: #7a1f1f; }
    svg .daynum { font-size: 9px; fill: #1b1b1b; }
    svg .level-4 + .daynum, svg .level-3 + .daynum { fill: #fff; }
    svg .level-none { fill: #eeeeee; }
    svg .level-0 { fill: #f2c4c4; }
    svg .level-1 { fill: #d6e8c8; }
    svg .level-2 { fill: #a9d18e; }
    svg .level-3 { fill: #6fae56; }
    svg .level-4 { fill: #2f7d32; }
    .phase { padding: 0 5pt; border-radius: 3pt; color: #fff; }
    .phase.green { background: #2f7d32; } .phase.yellow { background: #c9a400; color: #000; }
    .phase.red { background: #c62828; } .phase.dark-red { background: #6d0f0f; }
    @media screen and (max-width: 720px) {
      body { padding: 12px 14px; font-size: 10.5pt; }
      header h1 { font-size: 17pt; }
      div.plot, div.table { overflow-x: auto; }
      div.plot svg { min-width: 640px; }
      div.table table.wide { min-width: 540px; }
    }
    @media screen and (prefers-color-scheme: dark) {
      body { background: #16181b; color: #e4e4e4; }
      header p, figcaption, p.empty, ul.legend { color: #a9adb3; }
      p.warning { color: #f0b35a; }
      h2 { border-bottom-color: #444; }
      th, td { border-bottom-color: #2c2f33; }
      thead th { border-bottom-color: #666; }
      svg text { fill: #c9ccd0; }
      svg .axis-label { fill: #e4e4e4; }
      svg .axis { stroke: #9a9ea4; }
      svg .grid { stroke: #2c2f33; }
      svg .bar { fill: #5f82b0; }
      svg .bar.met { fill: #4fa86d; }
      svg .goal, svg .marker, svg .trend { stroke: #ff7b72; }
      svg .marker-label { fill: #ff7b72; }
      svg .average { stroke: #c9ccd0; }
      svg .hb { fill: #16181b; stroke: #ff7b72; }
      svg .excluded { fill: #16181b; stroke: #8b9096; }
      svg .donation { fill: #ff9d96; }
      svg .daynum { fill: #e4e4e4; }
      svg .level-4 + .daynum, svg .level-3 + .daynum { fill: #16181b; }
      svg .level-none { fill: #2a2d31; }
      svg .level-0 { fill: #7a3a3a; }
      svg .level-1 { fill: #3d5a33; }
      svg .level-2 { fill: #4f7a3f; }
      svg .level-3 { fill: #5f9e4c; }
      svg .level-4 { fill: #7cc36a; }
    }
    """
}
