//! A stand-in for the str_stack crate (not packaged in Debian), written
//! for flametools' bench from the uses inferno makes of it: strings
//! appended to one buffer, each known by its index.
use std::fmt;
use std::ops::Index;

#[derive(Default)]
pub struct StrStack {
    data: String,
    ends: Vec<usize>,
}

impl StrStack {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn push(&mut self, s: &str) -> usize {
        self.data.push_str(s);
        self.ends.push(self.data.len());
        self.ends.len() - 1
    }
    pub fn clear(&mut self) {
        self.data.clear();
        self.ends.clear();
    }
    pub fn len(&mut self) -> usize {
        self.ends.len()
    }
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> usize {
        fmt::Write::write_fmt(&mut self.data, args).expect("a String takes anything");
        self.ends.push(self.data.len());
        self.ends.len() - 1
    }
    pub fn writer(&mut self) -> Writer<'_> {
        Writer { s: self }
    }
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.ends.len()).map(move |i| &self[i])
    }
}

impl Index<usize> for StrStack {
    type Output = str;
    fn index(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.data[start..self.ends[i]]
    }
}

pub struct Writer<'a> {
    s: &'a mut StrStack,
}

impl<'a> Writer<'a> {
    pub fn finish(self) -> usize {
        self.s.ends.push(self.s.data.len());
        self.s.ends.len() - 1
    }
}

impl<'a> fmt::Write for Writer<'a> {
    fn write_str(&mut self, x: &str) -> fmt::Result {
        self.s.data.push_str(x);
        Ok(())
    }
}
