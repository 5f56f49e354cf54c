package main

import (
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// syncWindowParser is the parser of Argo CD v3.5.1's sync windows
// (pkg/apis/application/v1alpha1/types.go SyncWindow.Validate, SyncWindow.active): five fields,
// no seconds, no descriptor.
var syncWindowParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)

// descriptorParser also reads robfig's descriptors (@weekly ...): the library spells a freeze
// given one out in the five fields it stands for, which syncWindowParser then reads.
var descriptorParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// neverFiresFrom is the instant SpecSchedule.Next searches from to tell whether a schedule ever
// fires: a fixed one, so the answer is the same on every run. Next searches five years ahead, so
// a leap day is found from here.
var neverFiresFrom = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// CronSpec is a parsed schedule: robfig's SpecSchedule bits as the values each field fires at.
type CronSpec struct {
	Minutes     []int `json:"minutes"`
	Hours       []int `json:"hours"`
	DaysOfMonth []int `json:"daysOfMonth"`
	Months      []int `json:"months"`
	DaysOfWeek  []int `json:"daysOfWeek"`
	// DayOfMonthStar and DayOfWeekStar are robfig's star bits (spec.go dayMatches: a star on
	// either day field makes both required).
	DayOfMonthStar bool `json:"dayOfMonthStar"`
	DayOfWeekStar  bool `json:"dayOfWeekStar"`
	// FiresNever: SpecSchedule.Next returns the zero time, which Argo CD's SyncWindow.active
	// reads as a window that is always active.
	FiresNever bool `json:"firesNever"`
}

const starBit = 1 << 63 // robfig/cron spec.go

func bits(field uint64, min, max int) []int {
	values := []int{}
	for v := min; v <= max; v++ {
		if field&(1<<uint(v)) != 0 {
			values = append(values, v)
		}
	}
	return values
}

// cronAnswer parses a schedule as Argo CD does (Env "descriptor": with descriptors too).
func cronAnswer(r Request) Answer {
	parser := syncWindowParser
	if r.Env == "descriptor" {
		parser = descriptorParser
	}
	schedule, err := parser.Parse(r.Value)
	if err != nil {
		return Answer{Error: err.Error(), CronFields: fieldErrors(r.Value)}
	}
	spec, ok := schedule.(*cron.SpecSchedule)
	if !ok {
		// @every: a constant delay, not a calendar schedule a sync window can hold
		return Answer{Error: "is a constant delay (@every), not a calendar schedule"}
	}
	return Answer{Cron: &CronSpec{
		Minutes:        bits(spec.Minute, 0, 59),
		Hours:          bits(spec.Hour, 0, 23),
		DaysOfMonth:    bits(spec.Dom, 1, 31),
		Months:         bits(spec.Month, 1, 12),
		DaysOfWeek:     bits(spec.Dow, 0, 6),
		DayOfMonthStar: spec.Dom&starBit != 0,
		DayOfWeekStar:  spec.Dow&starBit != 0,
		FiresNever:     spec.Next(neverFiresFrom).IsZero(),
	}}
}

// CronFieldError is what the parser says of one field of a schedule on its own.
type CronFieldError struct {
	Field int    `json:"field"`
	Text  string `json:"text"`
	Error string `json:"error"`
}

// fieldErrors tells which of a refused schedule's five fields the parser refuses, each parsed by
// syncWindowParser with every other field `*`, so that one message names them all (robfig's
// own message stops at the first and does not name its field). Empty when the schedule does not
// have five fields, which is then the whole error.
func fieldErrors(schedule string) []CronFieldError {
	fields := strings.Fields(schedule) // as parser.Parse splits them
	if len(fields) != 5 {
		return nil
	}
	var errs []CronFieldError
	for i, text := range fields {
		alone := []string{"*", "*", "*", "*", "*"}
		alone[i] = text
		if _, err := syncWindowParser.Parse(strings.Join(alone, " ")); err != nil {
			errs = append(errs, CronFieldError{Field: i, Text: text, Error: err.Error()})
		}
	}
	return errs
}
