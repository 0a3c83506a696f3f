// Entry point: parse, run, and turn every failure into the one-line error convention.
import CLIApp
import CLICore

await Vital.start()
