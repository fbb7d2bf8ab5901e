// A small JSON reader for the starter bot (C++17, standard library only): enough for
// the arbiter's states. json::parse(text) returns a json::Value; read it with
// value["key"], value[index], .num(), .str(), .boolean(), .size() and .has("key").
// A missing key or index reads as null, and null reads as 0, "" or false.
#pragma once

#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace json {

class Value {
public:
    enum Kind { Null, Bool, Number, String, Array, Object };

    Kind kind = Null;
    bool b = false;
    double n = 0;
    std::string s;
    std::vector<Value> items;
    std::map<std::string, Value> fields;

    const Value &operator[](const std::string &key) const {
        auto it = fields.find(key);
        return it == fields.end() ? none() : it->second;
    }
    const Value &operator[](size_t i) const { return i < items.size() ? items[i] : none(); }
    bool has(const std::string &key) const { return fields.count(key) > 0; }
    size_t size() const { return items.size(); }
    long num() const { return static_cast<long>(n); }
    const std::string &str() const { return s; }
    bool boolean() const { return b; }

private:
    static const Value &none() {
        static const Value null;
        return null;
    }
};

class Parser {
public:
    explicit Parser(const std::string &text) : t(text) {}

    Value document() {
        Value v = value();
        space();
        if (i != t.size()) fail("text after the value");
        return v;
    }

private:
    const std::string &t;
    size_t i = 0;

    [[noreturn]] void fail(const char *what) {
        throw std::runtime_error(std::string("bad JSON: ") + what + " at " + std::to_string(i));
    }
    void space() {
        while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) i++;
    }
    bool eat(char c) {
        space();
        if (i < t.size() && t[i] == c) {
            i++;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!eat(c)) fail("unexpected character");
    }
    bool word(const char *w) {
        size_t len = std::char_traits<char>::length(w);
        if (t.compare(i, len, w) != 0) return false;
        i += len;
        return true;
    }

    Value value() {
        space();
        if (i >= t.size()) fail("unexpected end");
        Value v;
        char c = t[i];
        if (c == '{') {
            v.kind = Value::Object;
            i++;
            if (eat('}')) return v;
            do {
                space();
                std::string key = string();
                expect(':');
                v.fields[key] = value();
            } while (eat(','));
            expect('}');
        } else if (c == '[') {
            v.kind = Value::Array;
            i++;
            if (eat(']')) return v;
            do {
                v.items.push_back(value());
            } while (eat(','));
            expect(']');
        } else if (c == '"') {
            v.kind = Value::String;
            v.s = string();
        } else if (word("true")) {
            v.kind = Value::Bool;
            v.b = true;
        } else if (word("false")) {
            v.kind = Value::Bool;
        } else if (word("null")) {
        } else {
            const char *start = t.c_str() + i;
            char *end = nullptr;
            v.kind = Value::Number;
            v.n = std::strtod(start, &end);
            if (end == start) fail("unexpected character");
            i += end - start;
        }
        return v;
    }

    std::string string() {
        if (i >= t.size() || t[i] != '"') fail("expected a string");
        i++;
        std::string out;
        while (i < t.size() && t[i] != '"') {
            char c = t[i++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i >= t.size()) fail("unexpected end");
            char e = t[i++];
            switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u': {
                if (i + 4 > t.size()) fail("bad \\u escape");
                unsigned long code = std::strtoul(t.substr(i, 4).c_str(), nullptr, 16);
                i += 4;
                utf8(out, code);
                break;
            }
            default: out += e; // \" \\ \/
            }
        }
        if (i >= t.size()) fail("unterminated string");
        i++;
        return out;
    }

    // Names are the only strings that may hold other characters; surrogate pairs
    // are kept as two characters, which is enough to compare and print them.
    static void utf8(std::string &out, unsigned long c) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }
};

inline Value parse(const std::string &text) { return Parser(text).document(); }

} // namespace json
