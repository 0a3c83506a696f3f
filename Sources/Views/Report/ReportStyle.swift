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
    p.empty { color: #666; font-style: italic; margin: 3pt 0; }
    p.warning { color: #8a4b00; }
    h3 { font-size: 10.5pt; margin: 10pt 0 0; }
    figure.chart { margin: 6pt 0; }
    figcaption { font-size: 9pt; color: #555; }
    ul.legend { list-style: none; padding: 0; margin: 2pt 0; font-size: 9pt; color: #333; display: flex; flex-wrap: wrap; gap: 2pt 14pt; }
    ul.legend li { display: flex; align-items: center; gap: 4pt; }
    \(ChartStyle.light)
    svg.lab-trend { display: block; }
    svg .lab-band { fill: #dcebdc; }
    svg .lab-line { fill: none; stroke: #777; stroke-width: 1; }
    svg .lab-point { fill: #2f5d8f; }
    svg .lab-point.out { fill: #c62828; }
    strong.flag { color: #c62828; }
    .nowrap { white-space: nowrap; }
    td small { color: #555; }
    p.note { font-size: 9pt; color: #555; }
    .phase { padding: 0 5pt; border-radius: 3pt; color: #fff; }
    .phase.green { background: #2f7d32; } .phase.yellow { background: #c9a400; color: #000; }
    .phase.red { background: #c62828; } .phase.dark-red { background: #6d0f0f; }
    @media screen and (max-width: 720px) {
      body { padding: 12px 14px; font-size: 10.5pt; }
      header h1 { font-size: 17pt; }
      div.plot, div.table { overflow-x: auto; }
      div.plot svg { min-width: 640px; }
      \(ChartStyle.pinnedAxis(minWidth: 640))
      div.table table.wide { min-width: 540px; }
      svg.lab-trend { width: 96px; height: 22px; }
    }
    @media screen and (prefers-color-scheme: dark) {
      body { background: #16181b; color: #e4e4e4; }
      figure.chart { --chart-ground: #16181b; }
      header p, figcaption, p.empty, p.note, ul.legend, td small { color: #a9adb3; }
      svg .lab-band { fill: #24382a; }
      svg .lab-line { stroke: #8b9096; }
      svg .lab-point { fill: #8fb6e8; }
      svg .lab-point.out, strong.flag { fill: #ff7b72; color: #ff7b72; }
      p.warning { color: #f0b35a; }
      h2 { border-bottom-color: #444; }
      th, td { border-bottom-color: #2c2f33; }
      thead th { border-bottom-color: #666; }
      \(ChartStyle.dark)
    }
    """
}
