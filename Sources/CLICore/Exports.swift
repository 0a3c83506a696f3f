// JSON documents are built in the domain too (FHIR bundles, reports); every command line that
// imports CLICore prints them.
@_exported import Core
