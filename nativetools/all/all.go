// Package all registers every native tool domain in nativetools.Default by importing it.
package all
