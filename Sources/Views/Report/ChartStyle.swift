/// How the charts are drawn, shared by the report and `vital web`'s pages: the marks' colours
/// in light, and in dark where the page asks for it (`dark` goes inside that media query).
public enum ChartStyle {
  public static let light = """
    svg text { font-family: inherit; font-size: 10px; fill: #333; }
    svg .axis { stroke: #444; stroke-width: 1; }
    svg .grid { stroke: #e2e2e2; stroke-width: 1; }
    svg .axis-label { font-size: 10px; fill: #222; }
    svg .bar { fill: #7d9cc4; }
    svg .bar.met { fill: #3b8f5a; }
    svg .inbed { fill: #d5deea; }
    svg .range { stroke: #7d9cc4; stroke-width: 2; }
    svg .low { fill: #fff; stroke: #2f5d8f; stroke-width: 1.5; }
    svg .nodata { fill: #bbb; }
    svg .goal, svg .marker { stroke: #b03030; stroke-width: 1.2; stroke-dasharray: 4 3; fill: none; }
    svg .average { stroke: #333; stroke-width: 1; stroke-dasharray: 2 2; }
    svg .marker-label { fill: #b03030; paint-order: stroke; stroke: var(--chart-ground, #fff); stroke-width: 3px;
      stroke-linejoin: round; }
    svg .chart-ground { fill: var(--chart-ground, #fff); }
    svg.y-axis { display: none; }
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
    """

  public static let dark = """
    svg text { fill: #c9ccd0; }
    svg .axis-label { fill: #e4e4e4; }
    svg .axis { stroke: #9a9ea4; }
    svg .grid { stroke: #2c2f33; }
    svg .bar { fill: #5f82b0; }
    svg .bar.met { fill: #4fa86d; }
    svg .inbed { fill: #2f3b4a; }
    svg .range { stroke: #5f82b0; }
    svg .low { fill: #16181b; stroke: #8fb6e8; }
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
    """

  /// For a page whose charts scroll sideways in a frame at least `minWidth` wide: the value axis
  /// stays pinned at the frame's left edge, drawn at the scale the chart is, over what scrolls
  /// under it; a swipe that starts on it still scrolls the plot. The page puts it in the media
  /// query where its charts scroll.
  public static func pinnedAxis(minWidth: Double) -> String {
    let share = SVGChart.margin / SVGChart.standardWidth
    return """
      figure.chart { position: relative; }
      figure.chart svg.y-axis { display: block; position: absolute; top: 0; left: 0; height: auto; pointer-events: none;
        width: max(\(String(format: "%.3f", share * 100))%, \(String(format: "%.1f", share * minWidth))px); }
      """
  }
}
