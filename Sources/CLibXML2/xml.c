#include "CLibXML2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// Debian's libxml2 is built with ICU; nothing here needs its ICU-dependent API or headers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

// The functions used, by name, typed by libxml2's own declarations.
#define XML_FUNCTIONS(X) \
  X(xmlInitParser) X(xmlSetStructuredErrorFunc) X(xmlSAXVersion) X(xmlCreatePushParserCtxt) \
  X(xmlCtxtUseOptions) X(xmlParseChunk) X(xmlStopParser) X(xmlCtxtGetLastError) X(xmlFreeDoc) \
  X(xmlFreeParserCtxt)

static struct {
#define FIELD(name) __typeof__(name) *name;
  XML_FUNCTIONS(FIELD)
#undef FIELD
} xml;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static char load_failure[512];

static void load(void) {
  // The soname, not libxml2.so: that link comes with the -dev package only.
  void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    snprintf(load_failure, sizeof load_failure, "%s", why ? why : "libxml2.so.2 could not be loaded");
    return;
  }
#define BIND(name)                                                                     \
  if ((xml.name = (__typeof__(name) *)dlsym(library, #name)) == NULL) {                \
    snprintf(load_failure, sizeof load_failure, "libxml2.so.2 has no %s", #name);      \
    return;                                                                            \
  }
  XML_FUNCTIONS(BIND)
#undef BIND
  // Set up once, before parsers run on several threads.
  xml.xmlInitParser();
}

const char *vital_xml_load(void) {
  pthread_once(&loaded, load);
  return load_failure[0] ? load_failure : NULL;
}

struct vital_xml_parser {
  xmlParserCtxtPtr context;
  void *owner;
  vital_xml_start_fn start;
  vital_xml_end_fn end;
  vital_xml_text_fn text;
};

// No user data is given to libxml2: its own SAX2 callbacks (start and end of document, the DTD)
// expect the parser context as their first argument. The parser hangs off the context's _private.
static vital_xml_parser *owner_of(void *context) {
  return context ? ((xmlParserCtxtPtr)context)->_private : NULL;
}

static void on_start(void *context, const xmlChar *name, const xmlChar **attributes) {
  vital_xml_parser *parser = owner_of(context);
  if (parser && name) parser->start(parser->owner, name, attributes);
}

static void on_end(void *context, const xmlChar *name) {
  vital_xml_parser *parser = owner_of(context);
  if (parser && name) parser->end(parser->owner, name);
}

static void on_text(void *context, const xmlChar *bytes, int count) {
  vital_xml_parser *parser = owner_of(context);
  if (parser && bytes && count > 0) parser->text(parser->owner, bytes, count);
}

// Errors come back from xmlCtxtGetLastError; nothing is printed to stderr.
static void quiet(void *data, const xmlError *error) {
  (void)data;
  (void)error;
}

vital_xml_parser *vital_xml_new(
  void *owner, vital_xml_start_fn start, vital_xml_end_fn end, vital_xml_text_fn text) {
  if (vital_xml_load() != NULL) return NULL;
  vital_xml_parser *parser = calloc(1, sizeof *parser);
  if (parser == NULL) return NULL;
  parser->owner = owner;
  parser->start = start;
  parser->end = end;
  parser->text = text;
  // The error handler is the calling thread's.
  xml.xmlSetStructuredErrorFunc(NULL, (xmlStructuredErrorFunc)quiet);
  xmlSAXHandler handler = {0};
  xml.xmlSAXVersion(&handler, 1);
  handler.characters = text ? on_text : NULL;
  handler.ignorableWhitespace = NULL;
  handler.comment = NULL;
  handler.cdataBlock = NULL;
  handler.processingInstruction = NULL;
  handler.startElement = on_start;
  handler.endElement = on_end;
  parser->context = xml.xmlCreatePushParserCtxt(&handler, NULL, NULL, 0, NULL);
  if (parser->context == NULL) {
    free(parser);
    return NULL;
  }
  parser->context->_private = parser;
  // No network, no external entities; libxml2's own limits on entity expansion stay on.
  xml.xmlCtxtUseOptions(parser->context, XML_PARSE_NONET);
  return parser;
}

int vital_xml_feed(vital_xml_parser *parser, const char *bytes, int count, int last) {
  int status = xml.xmlParseChunk(parser->context, bytes, count, last);
  return status != 0 || parser->context->wellFormed == 0;
}

void vital_xml_stop(vital_xml_parser *parser) { xml.xmlStopParser(parser->context); }

const char *vital_xml_last_error(vital_xml_parser *parser, int *line, int *column) {
  const xmlError *error = xml.xmlCtxtGetLastError(parser->context);
  if (error == NULL) {
    *line = 0;
    *column = 0;
    return NULL;
  }
  *line = error->line;
  *column = error->int2;
  return error->message;
}

void vital_xml_free(vital_xml_parser *parser) {
  if (parser == NULL) return;
  if (parser->context->myDoc) xml.xmlFreeDoc(parser->context->myDoc);
  xml.xmlFreeParserCtxt(parser->context);
  free(parser);
}
