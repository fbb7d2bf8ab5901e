//! A small JSON reader for the starter bot (standard library only): enough for the
//! arbiter's states. `json::parse(text)` returns a [`Value`]; read it with
//! `value["key"]`, `value[index]`, `.num()`, `.str()` and `.boolean()`. A missing key
//! or index reads as `Null`, and `Null` reads as 0, "" or false.

// The bot uses a few of these readers; the others are there for yours.
#![allow(dead_code)]

use std::collections::HashMap;
use std::ops::Index;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Value>),
    Object(HashMap<String, Value>),
}

static NULL: Value = Value::Null;

impl Value {
    /// A number as an integer; 0 when not a number.
    pub fn num(&self) -> i64 {
        match self {
            Value::Number(n) => *n as i64,
            _ => 0,
        }
    }

    /// A string; "" when not a string.
    pub fn str(&self) -> &str {
        match self {
            Value::String(s) => s,
            _ => "",
        }
    }

    /// A boolean; false when not a boolean.
    pub fn boolean(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
}

impl Index<&str> for Value {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        match self {
            Value::Object(fields) => fields.get(key).unwrap_or(&NULL),
            _ => &NULL,
        }
    }
}

impl Index<usize> for Value {
    type Output = Value;
    fn index(&self, i: usize) -> &Value {
        match self {
            Value::Array(items) => items.get(i).unwrap_or(&NULL),
            _ => &NULL,
        }
    }
}

/// The value of a JSON text, or what is wrong with it.
pub fn parse(text: &str) -> Result<Value, String> {
    let mut p = Parser {
        t: text.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.space();
    if p.i != p.t.len() {
        return Err(p.fail("text after the value"));
    }
    Ok(v)
}

struct Parser<'a> {
    t: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn fail(&self, what: &str) -> String {
        format!("bad JSON: {what} at {}", self.i)
    }

    fn space(&mut self) {
        while self.i < self.t.len() && b" \t\r\n".contains(&self.t[self.i]) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.space();
        if self.t.get(self.i) == Some(&c) {
            self.i += 1;
            return true;
        }
        false
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.fail(&format!("expected '{}'", c as char)))
        }
    }

    fn word(&mut self, w: &str) -> bool {
        if self.t[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            return true;
        }
        false
    }

    fn value(&mut self) -> Result<Value, String> {
        self.space();
        match self.t.get(self.i) {
            None => Err(self.fail("unexpected end")),
            Some(b'{') => {
                self.i += 1;
                let mut fields = HashMap::new();
                if self.eat(b'}') {
                    return Ok(Value::Object(fields));
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    self.expect(b':')?;
                    fields.insert(key, self.value()?);
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.expect(b'}')?;
                Ok(Value::Object(fields))
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Ok(Value::Array(items));
                }
                loop {
                    items.push(self.value()?);
                    if !self.eat(b',') {
                        break;
                    }
                }
                self.expect(b']')?;
                Ok(Value::Array(items))
            }
            Some(b'"') => Ok(Value::String(self.string()?)),
            _ if self.word("true") => Ok(Value::Bool(true)),
            _ if self.word("false") => Ok(Value::Bool(false)),
            _ if self.word("null") => Ok(Value::Null),
            _ => {
                let start = self.i;
                while self.i < self.t.len() && b"+-0123456789.eE".contains(&self.t[self.i]) {
                    self.i += 1;
                }
                std::str::from_utf8(&self.t[start..self.i])
                    .ok()
                    .and_then(|s| s.parse().ok())
                    .map(Value::Number)
                    .ok_or_else(|| self.fail("unexpected character"))
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.t.get(self.i) != Some(&b'"') {
            return Err(self.fail("expected a string"));
        }
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let c = *self
                .t
                .get(self.i)
                .ok_or_else(|| self.fail("unterminated string"))?;
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = *self
                        .t
                        .get(self.i)
                        .ok_or_else(|| self.fail("unexpected end"))?;
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.t.get(self.i..self.i + 4);
                            let code = hex
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .ok_or_else(|| self.fail("bad \\u escape"))?;
                            self.i += 4;
                            // A lone surrogate half becomes U+FFFD.
                            let ch = char::from_u32(code).unwrap_or('\u{FFFD}');
                            out.extend_from_slice(ch.to_string().as_bytes());
                        }
                        other => out.push(other), // \" \\ \/
                    }
                }
                _ => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|_| self.fail("not UTF-8"))
    }
}
