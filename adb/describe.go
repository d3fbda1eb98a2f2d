package adb

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Describe returns serial's entry from the device list and, when it is
// online, fills AndroidVersion, SDK and Screen from the device. Unusable
// devices come back as listed, with their Hint.
func (c *Client) Describe(ctx context.Context, serial string) (Device, error) {
	devs, err := c.Devices(ctx)
	if err != nil {
		return Device{}, err
	}
	var d Device
	found := false
	for _, x := range devs {
		if x.Serial == serial {
			d, found = x, true
			break
		}
	}
	if !found {
		return Device{}, fmt.Errorf("describe %s: %w", serial, ErrDeviceNotFound)
	}
	if !d.Online() {
		return d, nil
	}

	// Five small commands; run them together so a USB round trip is paid once.
	var (
		wg                              sync.WaitGroup
		release, sdk, size, dens, model []byte
		errs                            [5]error
	)
	run := func(i int, dst *[]byte, cmd string) {
		defer wg.Done()
		*dst, errs[i] = c.Exec(ctx, serial, cmd)
	}
	wg.Add(5)
	go run(4, &model, "getprop ro.product.model")
	go run(0, &release, "getprop ro.build.version.release")
	go run(1, &sdk, "getprop ro.build.version.sdk")
	go run(2, &size, "wm size")
	go run(3, &dens, "wm density")
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return d, fmt.Errorf("describe %s: %w", serial, err)
		}
	}

	d.AndroidVersion = parsePropValue(string(release))
	// devices-l replaces spaces with underscores ("Pixel_7a"); the property does not.
	if m := parsePropValue(string(model)); m != "" {
		d.Model = m
	}
	if v := parsePropValue(string(sdk)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return d, fmt.Errorf("describe %s: ro.build.version.sdk %q is not a number", serial, v)
		}
		d.SDK = n
	}
	w, h, err := parseWMSize(string(size))
	if err != nil {
		return d, fmt.Errorf("describe %s: %w", serial, err)
	}
	density, err := ParseWMDensity(string(dens))
	if err != nil {
		return d, fmt.Errorf("describe %s: %w", serial, err)
	}
	d.Screen = &Screen{Width: w, Height: h, Density: density}
	return d, nil
}

// Props runs `getprop` and returns every system property of the device.
func (c *Client) Props(ctx context.Context, serial string) (map[string]string, error) {
	out, err := c.Exec(ctx, serial, "getprop")
	if err != nil {
		return nil, err
	}
	return parseGetprop(string(out)), nil
}

// Prop runs `getprop NAME`; an unset property is "".
func (c *Client) Prop(ctx context.Context, serial, name string) (string, error) {
	if strings.ContainsAny(name, " \t\n;&|'\"$`\\") {
		return "", fmt.Errorf("getprop: invalid property name %q", name)
	}
	out, err := c.Exec(ctx, serial, "getprop "+name)
	if err != nil {
		return "", err
	}
	return parsePropValue(string(out)), nil
}
