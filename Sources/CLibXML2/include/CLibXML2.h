#ifndef VITAL_CLIBXML2_H
#define VITAL_CLIBXML2_H

// libxml2's push parser, behind an interface of Vital's own. libxml2 (and the ICU it brings) is
// loaded the first time a parser is made, not when vital starts: only the Apple Health import
// reads XML, and every other command would pay for loading and relocating both libraries.

/// One push parser. Start and end tags and text reach the callbacks with `owner`.
typedef struct vital_xml_parser vital_xml_parser;
/// A start tag: its name, and its attributes as name, value, name, value, ..., NULL (or NULL).
typedef void (*vital_xml_start_fn)(void *owner, const unsigned char *name, const unsigned char **attributes);
typedef void (*vital_xml_end_fn)(void *owner, const unsigned char *name);
/// Text between tags, in pieces.
typedef void (*vital_xml_text_fn)(void *owner, const unsigned char *bytes, int count);

/// Loads libxml2 once: NULL when it is there, otherwise why it is not (the loader's message).
const char *vital_xml_load(void);

/// A parser whose callbacks get `owner`; `text` may be NULL. NULL when libxml2 is missing or
/// out of memory.
vital_xml_parser *vital_xml_new(
  void *owner, vital_xml_start_fn start, vital_xml_end_fn end, vital_xml_text_fn text);

/// Parses the next bytes; `last` ends the document. 0 while the document is well formed so far.
int vital_xml_feed(vital_xml_parser *parser, const char *bytes, int count, int last);

/// Stops the parse from inside a callback: the next feed fails.
void vital_xml_stop(vital_xml_parser *parser);

/// The last error's message (NULL when libxml2 gave none), with its line and column.
const char *vital_xml_last_error(vital_xml_parser *parser, int *line, int *column);

void vital_xml_free(vital_xml_parser *parser);

#endif
