package main

import (
	"debug/pe"
	"flag"
	"fmt"
	"os"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

// runCheckPE fails unless the file is a 64-bit (PE32+) x86-64 executable for the GUI
// subsystem (double-clicking opens a window without a console) that carries an icon
// and a version resource, optionally of a given product version.
func runCheckPE(args []string) error {
	f := flag.NewFlagSet("check-pe", flag.ContinueOnError)
	want := f.String("version", "", "product version the version resource must carry")
	if err := f.Parse(args); err != nil {
		return err
	}
	if f.NArg() != 1 {
		return fmt.Errorf("want one file")
	}
	path := f.Arg(0)
	if err := checkHeaders(path); err != nil {
		return err
	}
	got, err := resourceVersion(path)
	if err != nil {
		return err
	}
	if *want != "" && got != *want {
		return fmt.Errorf("%s: version resource says %q, want %q", path, got, *want)
	}
	fmt.Printf("%s: PE32+ x86-64, Windows GUI subsystem, icon and version %s\n", path, got)
	return nil
}

func checkHeaders(path string) error {
	f, err := pe.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok {
		return fmt.Errorf("%s is not PE32+ (64-bit)", path)
	}
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		return fmt.Errorf("%s is for machine %#x, want x86-64", path, f.Machine)
	}
	if oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		return fmt.Errorf("%s has subsystem %d, want %d (Windows GUI)", path, oh.Subsystem, pe.IMAGE_SUBSYSTEM_WINDOWS_GUI)
	}
	return nil
}

// resourceVersion reads the executable's resources back and returns the ProductVersion
// string, after checking the icon is there.
func resourceVersion(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	rs, err := winres.LoadFromEXE(fh)
	if err != nil {
		return "", fmt.Errorf("%s: resources: %w", path, err)
	}
	icons := 0
	rs.WalkType(winres.RT_GROUP_ICON, func(winres.Identifier, uint16, []byte) bool {
		icons++
		return true
	})
	if icons == 0 {
		return "", fmt.Errorf("%s has no icon resource", path)
	}
	var product string
	rs.WalkType(winres.RT_VERSION, func(_ winres.Identifier, _ uint16, data []byte) bool {
		vi, err := version.FromBytes(data)
		if err != nil {
			return true
		}
		for _, table := range vi.Table() {
			if v := (*table)[version.ProductVersion]; v != "" {
				product = v
			}
		}
		return product == ""
	})
	if product == "" {
		return "", fmt.Errorf("%s has no version resource with a ProductVersion", path)
	}
	return product, nil
}
