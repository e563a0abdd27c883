package main

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

func TestMeasureSmall(t *testing.T) {
	res, err := measure(config{ops: 20, pages: 2, workers: 2}, 150)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pipelines != 150 || res.CreateP50 <= 0 || res.GetP50 <= 0 || res.FirstPageP50 <= 0 || res.LastPageP50 <= 0 ||
		res.CreatesPerSec <= 0 || res.HeapInUse == 0 {
		t.Fatalf("result %+v", res)
	}
	var out bytes.Buffer
	if err := printTable(&out, config{ops: 20, pages: 2, workers: 2}, []result{res}); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(out.String()), "\n"); len(lines) != 5 || !strings.HasPrefix(lines[4], "| 150 |") {
		t.Fatalf("table:\n%s", out.String())
	}
}

func TestChildPrintsJSON(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-child", "30", "-ops", "5", "-pages", "1"}, &out); err != nil {
		t.Fatal(err)
	}
	var res result
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Pipelines != 30 {
		t.Fatalf("%s: %v", out.String(), err)
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-sizes", "10,x"}, {"-sizes", "0"}, {"-ops", "0"}, {"-workers", "-1"}, {"-nope"}} {
		if err := run(args, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}
